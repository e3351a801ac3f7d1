import CSQLite
import Foundation
import StreamdTestSupport
import Testing
@testable import EventLog

/// Connections go through CSQLiteWriteMerge's wrappers of the `unix` and `unix-excl` VFSes, which
/// write each WAL frame (its 24-byte header and its page) with one system call instead of two.
@Suite struct WALWriteMergeTests {
    #if os(Linux)
    /// Counts the write system calls (pwrite included) of the calling thread around each append: a
    /// synchronous append to an idle log commits on the thread that calls it. One that found the
    /// writer thread still busy with the commit before (on a loaded machine) commits there instead,
    /// and shows no write here: only the appends that did write count.
    @Test(arguments: [false, true])
    func aOneEventCommitMakesOneWALWriteSystemCallAndOneMarkWrite(exclusiveToProcess: Bool) throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.exclusiveToProcess = exclusiveToProcess
        let log = try EventLog(path: dir.file(), options: options)
        defer { log.close() }
        try log.createStream("s")
        // The first commit creates the WAL and writes its header, which costs writes of its own.
        try log.append(samplePayload(0), to: "s")
        let wanted = 200
        var committedHere = 0, writes = 0, appended = 0
        while committedHere < wanted, appended < 20 * wanted {
            let before = try threadWriteSystemCalls()
            appended += 1
            try log.append(samplePayload(appended), to: "s")
            let made = try threadWriteSystemCalls() - before
            if made > 0 {
                committedHere += 1
                writes += made
            }
        }
        try #require(committedHere == wanted, "only \(committedHere) of \(appended) appends committed on their own thread")
        // SQLite alone makes two per one-page commit; merged, the frame is one, and the stream's
        // high-water mark in <db>.marks (StreamMarks) the other.
        let perCommit = Double(writes) / Double(committedHere)
        #expect(perCommit < 2.3, "\(perCommit) write system calls per one-event commit")
        #expect(try log.readAll("s").count == appended + 1)
    }
    #endif

    /// One-event commits, multi-page commits (an event larger than a page) and commits right after a
    /// TRUNCATE checkpoint, which restart the WAL with a 32-byte header before the first frame.
    @Test(arguments: [false, true])
    func everyKindOfCommitReadsBackAfterReopening(exclusiveToProcess: Bool) throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.exclusiveToProcess = exclusiveToProcess
        var expected: [[UInt8]] = []
        do {
            let log = try EventLog(path: dir.file(), options: options)
            defer { log.close() }
            try log.createStream("s")
            for round in 0..<3 {
                for index in 0..<20 {
                    let payload = samplePayload(round * 100 + index)
                    expected.append(payload)
                    try log.append(payload, to: "s")
                }
                let large = incompressibleBytes(20_000, seed: UInt64(round + 1))
                expected.append(large)
                try log.append(large, to: "s")
                let batch = (0..<50).map { samplePayload(round * 100 + 50 + $0) }
                expected += batch
                try log.append(contentsOf: batch, to: "s")
                try log.checkpoint()
            }
            #expect(try log.readAll("s").map(\.payload) == expected)
        }
        let reopened = try EventLog(path: dir.file(), options: options)
        defer { reopened.close() }
        #expect(try reopened.readAll("s").map(\.payload) == expected)
        #expect(try reopened.verify().isClean)
        try reopened.append(samplePayload(999), to: "s")
        #expect(try reopened.readAll("s").count == expected.count + 1)
    }

    /// A child process appends through the wrapper while this one appends and reads through its own;
    /// afterwards SQLite without the wrapper finds the file intact and every acknowledged event is there.
    @Test func twoProcessesShareOneFileThroughTheWrapper() throws {
        let child = CrashSafetyTests.childPath
        try #require(FileManager.default.isExecutableFile(atPath: child), "build the eventlog-crashtest target: \(child)")
        let dir = TemporaryDirectory()
        let (process, output) = try CrashTestChild.start([dir.file(), "2", "normal", "100", "shared"])
        let lines = ChildLines(output.fileHandleForReading.fileDescriptor)
        var killed = false
        defer {
            if !killed { kill(process.processIdentifier, SIGKILL) }
            process.waitForExitStatus()
        }
        try #require(lines.readUntil(count: 20), "the child stopped before acknowledging 20 appends")

        let log = try EventLog(path: dir.file())
        defer { log.close() }
        try log.createStream("mine")
        for index in 0..<100 { try log.append(samplePayload(index), to: "mine") }
        #expect(try log.readAll("crash").count >= 20)
        kill(process.processIdentifier, SIGKILL)
        killed = true
        _ = lines.readUntil(count: .max)
        let acknowledged = try #require(lines.lastSequence)

        #expect(try log.readAll("mine").map(\.payload) == (0..<100).map(samplePayload))
        let crash = try log.readAll("crash")
        #expect(crash.count >= Int(acknowledged))
        expectContiguous(crash, from: 1)
        #expect(try log.verify().isClean)
        #expect(try integrityCheckWithoutTheWrapper(dir.file()) == "ok")
    }

    /// `PRAGMA integrity_check` on a connection of SQLite's default VFS.
    private func integrityCheckWithoutTheWrapper(_ path: String) throws -> String {
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        try #require(sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK)
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        try #require(sqlite3_prepare_v2(handle, "PRAGMA integrity_check", -1, &statement, nil) == SQLITE_OK)
        try #require(sqlite3_step(statement) == SQLITE_ROW)
        return String(cString: sqlite3_column_text(statement, 0))
    }
}

/// Reads eventlog-crashtest's "FIRST LAST" lines from a pipe (blocking reads: the child either
/// prints or dies, which ends the pipe).
private final class ChildLines {
    private let descriptor: Int32
    private var pending: [UInt8] = []
    private(set) var count = 0
    private(set) var lastSequence: UInt64?

    init(_ descriptor: Int32) { self.descriptor = descriptor }

    /// Reads until `count` lines arrived in all (true) or the pipe ended first (false).
    func readUntil(count wanted: Int) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while count < wanted {
            let received = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if received <= 0 { return false }
            pending.append(contentsOf: buffer[0..<received])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let fields = String(decoding: pending[..<newline], as: UTF8.self).split(separator: " ")
                if fields.count == 2, let last = UInt64(fields[1]) {
                    count += 1
                    lastSequence = max(lastSequence ?? 0, last)
                }
                pending.removeSubrange(...newline)
            }
        }
        return true
    }
}

@available(*, unavailable) extension ChildLines: Sendable {}
