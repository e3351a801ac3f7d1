import Testing
@testable import StreamProtocol

/// The byte layouts of the administration messages added for streamctl, as schemas/protocol.md gives them.
@Suite struct AdminMessageLayoutTests {
    @Test func getStatsIsAnEmptyBodyOfType0x36() throws {
        #expect(try ClientMessage.getStats.encoded(requestID: 2) == [0, 0, 0, 6, 0x36, 0, 0, 0, 0, 2])
    }

    @Test func verifyCarriesAnOptionalStreamName() throws {
        #expect(try ClientMessage.verify(stream: nil).encoded(requestID: 1) == [0, 0, 0, 7, 0x37, 0, 0, 0, 0, 1, 0])
        #expect(try ClientMessage.verify(stream: "ab").encoded(requestID: 1) == [
            0, 0, 0, 11, 0x37, 0, 0, 0, 0, 1,
            1, 0, 2, 0x61, 0x62, // stream present: "ab"
        ])
    }

    @Test func endStreamCarriesTheStreamTheExpectedSequenceAndAnOptionalFailure() throws {
        #expect(try ClientMessage.endStream(stream: "ab", failure: nil, expectedLastSequence: nil).encoded(requestID: 1) == [
            0, 0, 0, 12, 0x12, 0, 0, 0, 0, 1,
            0, 2, 0x61, 0x62, // stream "ab"
            0, // no expected_last_sequence
            0, // no failure: the stream completed
        ])
        #expect(try ClientMessage.endStream(stream: "ab", failure: "x", expectedLastSequence: 3).encoded(requestID: 1) == [
            0, 0, 0, 23, 0x12, 0, 0, 0, 0, 1,
            0, 2, 0x61, 0x62, // stream "ab"
            1, 0, 0, 0, 0, 0, 0, 0, 3, // expected_last_sequence 3
            1, 0, 1, 0x78, // failure "x"
        ])
    }

    @Test func statsAreLaidOutAsTheDocumentSays() throws {
        let stats = DaemonStats(
            uptimeMilliseconds: 1, version: "v", databasePath: "/d", databaseBytes: 2, streams: 3, events: 4,
            storedBytes: 5, rawBytes: 6, connections: 7, subscriptions: 8, publishedSinceStart: 9, publishRateMillis: 1_500)
        let bytes = try ServerMessage.stats(stats).encoded(requestID: 3)
        let body: [UInt8] = [
            0, 0, 0, 0, 0, 0, 0, 1, // uptime_ms
            0, 1, 0x76, // version "v"
            0, 2, 0x2F, 0x64, // database_path "/d"
            0, 0, 0, 0, 0, 0, 0, 2, // database_bytes
            0, 0, 0, 0, 0, 0, 0, 3, // streams
            0, 0, 0, 0, 0, 0, 0, 4, // events
            0, 0, 0, 0, 0, 0, 0, 5, // stored_bytes
            0, 0, 0, 0, 0, 0, 0, 6, // raw_bytes
            0, 0, 0, 7, // connections
            0, 0, 0, 8, // subscriptions
            0, 0, 0, 0, 0, 0, 0, 9, // published
            0, 0, 0, 0, 0, 0, 0x05, 0xDC, // publish_rate 1500
        ]
        #expect(bytes == [0, 0, 0, UInt8(6 + body.count), 0xB4, 0, 0, 0, 0, 3] + body)
        #expect(stats.publishRate == 1.5)
    }

    @Test func aVerifyReportIsLaidOutAsTheDocumentSays() throws {
        let report = VerifyResult(streams: 1, blocks: 2, events: 3, problems: [
            .init(stream: "s", sequences: 4...5, message: "x"),
            .init(stream: nil, sequences: nil, message: ""),
        ])
        let bytes = try ServerMessage.verifyReport(report).encoded(requestID: 4)
        let body: [UInt8] = [
            0, 0, 0, 1, // streams
            0, 0, 0, 0, 0, 0, 0, 2, // blocks
            0, 0, 0, 0, 0, 0, 0, 3, // events
            0, 0, 0, 2, // count
            1, 0, 1, 0x73, // stream present: "s"
            1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 5, // sequences present: 4...5
            0, 1, 0x78, // message "x"
            0, // stream absent
            0, // sequences absent
            0, 0, // message ""
        ]
        #expect(bytes == [0, 0, 0, UInt8(6 + body.count), 0xB5, 0, 0, 0, 0, 4] + body)
    }

    @Test func aStreamInfoEndsWithItsPublishRate() throws {
        let info = StreamInfo(name: "a", policy: StreamPolicy(), publishRateMillis: 258)
        let bytes = try ServerMessage.streamInfo(info).encoded(requestID: 1)
        #expect(Array(bytes.suffix(9)) == [0, /* state open, then publish_rate 258: */ 0, 0, 0, 0, 0, 0, 1, 2])
        #expect(info.publishRate == 0.258)
    }

    @Test func aReversedProblemRangeIsMalformed() throws {
        let body: [UInt8] = [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1,
                             0, 1, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0]
        #expect(throws: ProtocolError.malformed("problem.first_sequence 9 is after problem.last_sequence 2")) {
            try ServerMessage(Frame(type: 0xB5, requestID: 1, body: body))
        }
    }
}
