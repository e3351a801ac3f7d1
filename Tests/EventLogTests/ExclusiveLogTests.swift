import Foundation
import StreamdTestSupport
import Testing
@testable import EventLog

/// A log opened `exclusiveToProcess`: its connections share the WAL index in memory, and other
/// processes are kept out while it is open.
@Suite struct ExclusiveLogTests {
    @Test func itKeepsTheWALIndexInMemoryRatherThanInTheShmFile() throws {
        let dir = TemporaryDirectory()
        for exclusive in [true, false] {
            let path = dir.file(exclusive ? "exclusive.sqlite" : "shared.sqlite")
            var options = EventLogOptions()
            options.exclusiveToProcess = exclusive
            let log = try EventLog(path: path, options: options)
            try log.createStream("s")
            try log.append(samplePayload(1), to: "s")
            #expect(try log.readAll("s").count == 1)
            #expect(FileManager.default.fileExists(atPath: path + "-shm") == !exclusive, "exclusive: \(exclusive)")
            log.close()
        }
    }

    @Test func anotherProcessCannotOpenItWhileItIsOpen() throws {
        let child = CrashSafetyTests.childPath
        try #require(FileManager.default.isExecutableFile(atPath: child), "build the eventlog-crashtest target: \(child)")
        let dir = TemporaryDirectory()
        let (process, output) = try CrashTestChild.start([dir.file(), "1", "normal", "1000", "exclusive"])
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitForExitStatus()
        }
        // The child's first acknowledged append: it has the database.
        var byte: UInt8 = 0
        #expect(read(output.fileHandleForReading.fileDescriptor, &byte, 1) == 1)

        var options = EventLogOptions()
        options.busyTimeoutMilliseconds = 50
        #expect {
            _ = try EventLog(path: dir.file(), options: options)
        } throws: { error in
            (error as? EventLogError)?.code == .busy
        }
    }
}
