import Testing
@testable import EventLog
import StreamdTestSupport

/// Appends write a stream's catalog row only every `LogWriter.unsavedBlockLimit` blocks (or when
/// retention or a terminal event changes it); every load adds the blocks committed after the row.
@Suite struct UnsavedPositionsTests {
    /// The positions the catalog row itself holds, read as another program would.
    private func rowLastSequence(_ path: String, _ stream: String) throws -> Int64 {
        let connection = try SQLiteConnection(path: path, readOnly: true, create: false, busyTimeoutMilliseconds: 1_000)
        return try connection.integer("SELECT last_seq FROM streams WHERE name = '\(stream)'")
    }

    @Test func mostAppendsLeaveTheRowAndEveryReaderStillSeesTheWholeStream() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        for index in 0..<(LogWriter.unsavedBlockLimit * 2 + 10) { try log.append(samplePayload(index), to: "s") }
        let total = UInt64(LogWriter.unsavedBlockLimit * 2 + 10)

        let row = try rowLastSequence(dir.file(), "s")
        #expect(row < Int64(total), "each append wrote the row")
        #expect(row >= Int64(total) - Int64(LogWriter.unsavedBlockLimit), "the row fell more than the limit behind")

        let info = try #require(try log.streamInfo("s"))
        #expect(info.lastSequence == total)
        #expect(info.storedBytes == Int64(try log.storageFigures(of: "s").storedBytes))
        #expect(try log.readAll("s").count == Int(total))
        #expect(try log.verify().isClean)

        // Another log on the same file (a new process, say) sees the same, and appends go on from there.
        log.close()
        let reopened = try EventLog(path: dir.file())
        #expect(try reopened.streamInfo("s") == info)
        #expect(try reopened.append([1], to: "s").sequence == total + 1)
        #expect(try reopened.verify().isClean)
    }

    @Test func closingWritesTheRowsAppendsLeftBehind() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        for index in 0..<10 { try log.append(samplePayload(index), to: "s") }
        #expect(try rowLastSequence(dir.file(), "s") < 10)
        log.close()
        #expect(try rowLastSequence(dir.file(), "s") == 10, "the next open would read blocks past the row")
    }

    @Test func retentionAndTheTerminalEventAlwaysWriteTheRow() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("capped", policy: StreamPolicy(capacity: .last(5)))
        try log.createStream("ending")
        for index in 0..<20 {
            try log.append(samplePayload(index), to: "capped")
            try log.append(samplePayload(index), to: "ending")
        }
        try log.appendCompleted(to: "ending")
        // Retention moved the first sequence on each append past 5: the row kept up.
        #expect(try rowLastSequence(dir.file(), "capped") == 20)
        #expect(try rowLastSequence(dir.file(), "ending") == 21)
        #expect(try log.streamInfo("capped")?.firstSequence == 16)
        #expect(try log.streamInfo("ending")?.state == .completed)
        #expect(try log.verify().isClean)
    }

    @Test func truncationAfterUnsavedAppendsKeepsEveryPosition() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        for index in 0..<30 { try log.append(samplePayload(index), to: "s") }
        let info = try log.truncate("s", keepingLast: 10)
        #expect(info.firstSequence == 21 && info.lastSequence == 30)
        #expect(try rowLastSequence(dir.file(), "s") == 30)
        #expect(try log.readAll("s").map(\.sequence) == Array(21...30))
        #expect(try log.append([1], to: "s").sequence == 31)
        #expect(try log.verify().isClean)
    }
}
