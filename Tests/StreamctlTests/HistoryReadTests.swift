import Foundation
import StreamClient
import StreamProtocol
import StreamdTestSupport
import Testing

/// `StreamConnection.history(of:from:credit:)`, the bounded read under `tail`, `export` and `replay`,
/// in-process against a real daemon.
@Suite struct HistoryReadTests {
    static let shared = SharedDaemon.start()

    private func connect() async throws -> StreamConnection {
        try await StreamConnection.connect(socketPath: try Self.shared.get().socket)
    }

    @Test(arguments: [2, 3, 256] as [UInt32])
    func itReadsEveryEventToTheEndUnderAnyCredit(credit: UInt32) async throws {
        let connection = try await connect()
        defer { connection.close() }
        let stream = uniqueStream("history")
        _ = try await connection.append(contentsOf: (1...1_000).map { Array("e\($0)".utf8) }, to: stream)
        var sequences: [UInt64] = []
        for try await event in connection.history(of: stream, credit: credit) { sequences.append(event.sequence) }
        #expect(sequences == Array(1...1_000))
    }

    @Test func itEndsAtTheLastEventStoredWhenItBeganAndFromAnyStart() async throws {
        let connection = try await connect()
        defer { connection.close() }
        let stream = uniqueStream("history-end")
        _ = try await connection.append(contentsOf: (1...10).map { [UInt8($0)] }, to: stream)
        var seen: [UInt64] = []
        for try await event in connection.history(of: stream, from: .last(3)) {
            seen.append(event.sequence)
            if seen.count == 1 { _ = try await connection.append(contentsOf: [[99]], to: stream) } // after it began: not read
        }
        #expect(seen == [8, 9, 10])
        var none: [UInt64] = []
        for try await event in connection.history(of: stream, from: .from(sequence: 50)) { none.append(event.sequence) }
        #expect(none.isEmpty)
        _ = try await connection.truncate(stream, .beforeSequence(12))
        for try await event in connection.history(of: stream) { none.append(event.sequence) }
        #expect(none.isEmpty)
    }

    @Test func leavingTheLoopEarlyUnsubscribes() async throws {
        let connection = try await connect()
        defer { connection.close() }
        let stream = uniqueStream("history-early")
        _ = try await connection.append(contentsOf: (1...500).map { _ in [1] }, to: stream)
        var reader: StreamHistory.Iterator? = connection.history(of: stream, credit: 8).makeAsyncIterator()
        #expect(try await reader?.next()?.sequence == 1)
        #expect(try await connection.streamInfo(stream).subscribers == 1)
        reader = nil
        #expect(try await eventually { try await connection.streamInfo(stream).subscribers == 0 }, "still subscribed")
    }

    @Test func anUnknownStreamThrowsStreamNotFound() async throws {
        let connection = try await connect()
        defer { connection.close() }
        await #expect(throws: StreamClientError.self) {
            for try await _ in connection.history(of: uniqueStream("nowhere")) {}
        }
    }
}
