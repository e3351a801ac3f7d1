import Foundation
import StreamClient
import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

/// Every reply fits the maximum frame length the server announces (issue 14, defect 9), checked by a
/// client that enforces that maximum on every frame it reads, as one written from schemas/protocol.md
/// would. The server runs with a small maximum so the tests stay small.
@Suite struct ReplyBoundsTests {
    /// Runs a server whose frames are at most `frameLength` bytes, with `configure` applied to its limits.
    private func withSmallFrames(
        _ frameLength: Int, _ configure: @escaping (inout ServerLimits) -> Void = { _ in },
        _ body: (ShortTemporaryDirectory) async throws -> Void
    ) async throws {
        try await withServer(configure: { configuration in
            configuration.limits.maximumFrameLength = frameLength
            configure(&configuration.limits)
        }) { _, directory in try await body(directory) }
    }

    /// A client speaking `maxVersion` that refuses any frame longer than `frameLength`.
    private func strictClient(_ directory: ShortTemporaryDirectory, _ frameLength: Int, maxVersion: UInt16 = 2) throws -> SocketClient {
        let client = try SocketClient.connected(to: directory.socket, maxVersion: maxVersion)
        client.maximumReplyLength = frameLength
        return client
    }

    @Test func aBatchWhoseReplyWouldExceedTheFrameIsRefusedBeforeAnythingIsStored() async throws {
        let frameLength = 64 * 1024
        let most = FrameBounds.maximumBatchEntries(frameLength: frameLength)
        try await withSmallFrames(frameLength) { directory in
            let client = try strictClient(directory, frameLength)
            let entries = [ClientMessage.PublishBatch.Entry](repeating: .init(payload: []), count: most + 1)
            // Both the pipelined path (no ids, no condition) and the conditional one.
            for expected: UInt64? in [nil, 0] {
                let reply = try client.request(.publishBatch(.init(stream: "big", expectedLastSequence: expected, entries: entries)))
                guard case let .error(code, message) = reply else { Issue.record("not refused: \(reply)"); return }
                #expect(code == .invalidArgument)
                #expect(message.contains("carries \(most + 1) events, more than the \(most)") && message.contains("nothing was stored"), "\(message)")
            }
            let info = try client.request(.getStreamInfo(name: "big"))
            guard case let .error(missing, _) = info else { Issue.record("something was stored: \(info)"); return }
            #expect(missing == .streamNotFound)
            // The largest allowed batch is stored, and its reply fits.
            let reply = try client.request(.publishBatch(.init(stream: "big", entries: Array(entries.prefix(most)))))
            guard case let .publishedBatch(published, _) = reply else { Issue.record("not stored: \(reply)"); return }
            #expect(published.count == most && published.last?.sequence == UInt64(most))
        }
    }

    @Test func theClientLibrarySplitsABatchTooLargeForOneReply() async throws {
        let frameLength = 64 * 1024
        let most = FrameBounds.maximumBatchEntries(frameLength: frameLength)
        try await withSmallFrames(frameLength) { directory in
            let connection = try await StreamConnection.connect(socketPath: directory.socket, clientName: "bounds-test")
            defer { connection.close() }
            let payloads = (0..<(2 * most + 10)).map { Array("e\($0)".utf8) }
            let published = try await connection.append(contentsOf: payloads, to: "split", expectedLastSequence: 0)
            #expect(published.map(\.sequence) == Array(1...UInt64(payloads.count)))
            #expect(try await connection.streamInfo("split").count == UInt64(payloads.count))
        }
    }

    @Test func theListingComesInPagesThatFitTheFrameAndNamesEveryStreamOnce() async throws {
        let frameLength = 16 * 1024
        try await withSmallFrames(frameLength) { directory in
            let client = try strictClient(directory, frameLength)
            let names = (0..<300).map { index in String(format: "s%03d-", index) + String(repeating: "n", count: 195) }
            for name in names.shuffled() {
                guard case .streamInfo = try client.request(.createStream(name: name, policy: StreamPolicy())) else {
                    Issue.record("cannot create \(name)")
                    return
                }
            }
            // Version 1's LIST_STREAMS cannot page: it is refused rather than answered with a frame too long.
            let whole = try client.request(.listStreams)
            guard case let .error(code, message) = whole else { Issue.record("answered with \(whole)"); return }
            #expect(code == .limitExceeded && message.contains("LIST_STREAMS_PAGE"), "\(message)")

            var listed: [String] = []
            var after: String? = nil
            var pages = 0
            while true {
                let reply = try client.request(.listStreamsPage(after: after, limit: 1_000))
                guard case let .streamPage(page, more) = reply else { Issue.record("got \(reply)"); return }
                pages += 1
                listed += page.map(\.name)
                guard more, let last = page.last?.name else { break }
                after = last
            }
            #expect(pages > 1)
            #expect(listed == names.sorted())

            // A limit smaller than what fits is kept.
            let small = try client.request(.listStreamsPage(after: nil, limit: 7))
            guard case let .streamPage(page, more) = small else { Issue.record("got \(small)"); return }
            #expect(page.count == 7 && more)

            let connection = try await StreamConnection.connect(socketPath: directory.socket, clientName: "bounds-test")
            defer { connection.close() }
            #expect(try await connection.listStreams(pageSize: 40).map(\.name) == names.sorted())
        }
    }

    @Test func eventsFramesFitTheFrameEvenWithAMaximalEventAfterSmallOnes() async throws {
        let frameLength = 64 * 1024
        let largest = FrameBounds.maximumPayload(frameLength: frameLength)
        try await withSmallFrames(frameLength, { $0.maximumEventBytesPerFrame = 16 * 1024 }) { directory in
            let client = try strictClient(directory, frameLength)
            // One byte more than an EVENTS frame can carry is refused, though its PUBLISH frame fits.
            let refused = try client.request(.publish(.init(stream: "e", payload: [UInt8](repeating: 7, count: largest + 1))))
            guard case let .error(code, message) = refused else { Issue.record("stored: \(refused)"); return }
            #expect(code == .invalidArgument && message.contains("larger than the \(largest) bytes"), "\(message)")
            try client.publish([UInt8](repeating: 1, count: 10 * 1024), to: "e")
            try client.publish([UInt8](repeating: 2, count: largest), to: "e")
            try client.publish([UInt8](repeating: 3, count: 10), to: "e")
            // Read from the log (the events are stored before the subscription opens).
            try client.send(.subscribe(.init(subscriptionID: 1, stream: "e", start: .all, credit: 100)))
            let events = try client.events(of: 1, count: 3)
            #expect(events.map(\.payload.count) == [10 * 1024, largest, 10])
        }
    }

    @Test func aVerifyReportListsTheProblemsThatFitAndCountsTheRest() throws {
        let frameLength = 4 * 1024
        let (hub, storage) = try makeHub { $0.maximumFrameLength = frameLength }
        defer { _ = storage }
        let problems = (1...100).map { index in
            VerifyResult.Problem(stream: "s", sequences: UInt64(index)...UInt64(index), message: String(repeating: "bad block ", count: 10))
        }
        let report = hub.bounded(VerifyResult(streams: 1, blocks: 100, events: 100, problems: problems))
        let frame = try ServerMessage.verifyReport(report).encoded(requestID: 1)
        #expect(frame.count - 4 <= frameLength)
        let listed = report.problems.count - 1
        #expect(listed > 0 && listed < 100)
        #expect(report.problems.prefix(listed) == problems.prefix(listed))
        #expect(report.problems.last?.message.hasPrefix("\(100 - listed) more problems are not listed") == true)
        // A report that fits is left as it is.
        let small = VerifyResult(streams: 1, blocks: 1, events: 1, problems: Array(problems.prefix(3)))
        #expect(hub.bounded(small) == small)
    }
}
