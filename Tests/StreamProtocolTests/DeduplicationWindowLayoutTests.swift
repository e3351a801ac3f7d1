import Testing
@testable import StreamProtocol

/// A stream's de-duplication window on the wire: at the end of `stream_policy` from version 4, as
/// schemas/protocol.md lays it out, and absent in the layout an older peer speaks.
@Suite struct DeduplicationWindowLayoutTests {
    private let twoMinutes = StreamPolicy(deduplication: DeduplicationWindow(duration: .seconds(120)))

    private func policyBytes(_ policy: StreamPolicy, version: UInt16) throws -> [UInt8] {
        // CREATE_STREAM "s": the length (4), header (6) and the name (3) before the policy.
        Array(try ClientMessage.createStream(name: "s", policy: policy).encoded(requestID: 1, version: version).dropFirst(13))
    }

    @Test func theDocumentsExampleIsTheBytesOfVersion4() throws {
        #expect(try policyBytes(twoMinutes, version: 4) == [
            0, 0, 0, // capacity, max_age_ms, max_bytes absent
            1, // default_start: every retained event
            1, // deduplication present
            0, // events absent
            1, 0, 0, 0, 0, 0, 1, 0xD4, 0xC0, // window_ms 120 000
        ])
        #expect(try policyBytes(StreamPolicy(deduplication: DeduplicationWindow(events: 5)), version: 4).suffix(11) == [
            1, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, // present: events 5, window absent
        ])
        #expect(try policyBytes(StreamPolicy(), version: 4) == [0, 0, 0, 1, 0], "the daemon's default: absent")
    }

    @Test func aPeerOfVersion3NeitherWritesNorReadsAWindow() throws {
        #expect(try policyBytes(twoMinutes, version: 3) == [0, 0, 0, 1])
        let frame = try ClientMessage.createStream(name: "s", policy: twoMinutes).encoded(requestID: 1, version: 3)
        let decoded = try ClientMessage(try #require(try Self.frame(frame)), version: 3)
        #expect(decoded == .createStream(name: "s", policy: StreamPolicy()))
        #expect(throws: ProtocolError.self, "a version-4 body read as version 3 has bytes left over") {
            _ = try ClientMessage(try #require(try Self.frame(ClientMessage.createStream(name: "s", policy: twoMinutes).encoded(requestID: 1))), version: 3)
        }
    }

    @Test func streamInfoAndListsRoundTripInEachVersionsLayout() throws {
        let info = StreamInfo(name: "orders", policy: StreamPolicy(capacity: .last(9), deduplication: DeduplicationWindow(events: 7, duration: .milliseconds(1_500))))
        let replies: [ServerMessage] = [.streamInfo(info), .streamList([info, info]), .streamPage(streams: [info], more: true)]
        for reply in replies {
            let current = try ServerMessage(try #require(try Self.frame(reply.encoded(requestID: 2))))
            #expect(current == reply)
            var older = info
            older.policy.deduplication = nil
            let old = try ServerMessage(try #require(try Self.frame(reply.encoded(requestID: 2, version: 3))), version: 3)
            #expect(old == reply.replacingInfo(with: older))
        }
    }

    @Test func aWindowOutsideWhatCanBeKeptIsNamedAsAProblem() {
        #expect(DeduplicationWindow(events: 10).problem == nil)
        #expect(DeduplicationWindow.off.problem == nil)
        #expect(DeduplicationWindow().problem?.contains("needs a count of events, a duration or both") == true)
        #expect(DeduplicationWindow(duration: .zero).problem?.contains("must be positive") == true)
        #expect(DeduplicationWindow(events: .max).problem?.contains("too long to store") == true)
        #expect(StreamPolicy(deduplication: DeduplicationWindow()).problem != nil, "a policy names its window's problem")
    }

    @Test func theCutoffKeepsTheLastEventsAndTheLastDuration() {
        let window = DeduplicationWindow(events: 10, duration: .seconds(2))
        #expect(window.cutoff(lastSequence: 25, now: 5_000_000) == (15, 3_000_000))
        #expect(window.cutoff(lastSequence: 4, now: 5_000_000).afterSequence == 0)
        #expect(DeduplicationWindow(duration: .seconds(1)).cutoff(lastSequence: 99, now: 0) == (0, -1_000_000))
        #expect(DeduplicationWindow(events: 3).cutoff(lastSequence: 9, now: 0).sinceTimestamp == .min)
    }

    private static func frame(_ bytes: [UInt8]) throws -> Frame? {
        var decoder = FrameDecoder()
        decoder.append(bytes)
        return try decoder.next()
    }
}

extension ServerMessage {
    /// This reply with every `stream_info` in it replaced by `info`.
    fileprivate func replacingInfo(with info: StreamInfo) -> ServerMessage {
        switch self {
        case .streamInfo: .streamInfo(info)
        case let .streamList(infos): .streamList(infos.map { _ in info })
        case let .streamPage(infos, more): .streamPage(streams: infos.map { _ in info }, more: more)
        default: self
        }
    }
}
