import EventLog
import Foundation
import StreamdTestSupport
import Testing

/// streamd owning its database (`exclusiveToProcess`), as an operator sees it.
@Suite("streamd exclusive database")
struct ExclusiveDaemonTests {
    /// Another process reading the database (a report job, a `sqlite3` shell) now keeps streamd
    /// from starting: the refusal must say so, not ask to stop "the other writer".
    @Test func aDaemonStartedWhileAnotherProcessHasTheDatabaseOpenSaysWhy() throws {
        let directory = try ShortTemporaryDirectory()
        do {
            let log = try EventLog(path: directory.database)
            try log.createStream("s")
            log.close()
        }
        var options = EventLogOptions()
        options.readOnly = true
        let reader = try EventLog(path: directory.database, options: options)
        defer { reader.close() }
        #expect(try reader.streamInfo("s") != nil)

        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", directory.database])
        #expect(daemon.waitForExit() == 1)
        let message = daemon.standardError
        #expect(message.contains("another process has the database \(directory.database) open"), "streamd said: \(message)")
        #expect(message.contains("close that process"), "streamd said: \(message)")
    }

    /// The offline check a user runs right after killing the daemon must see every publish it answered.
    @Test func offlineVerifyRightAfterTheDaemonWasKilledFindsEveryAnsweredPublish() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory)
        let client = try SocketClient.connected(to: directory.socket)
        var last: UInt64 = 0
        for index in 0..<200 { last = try client.publish([UInt8(index % 256)], to: "s") }
        daemon.signal(SIGKILL)
        _ = daemon.waitForExit()
        #expect(!FileManager.default.fileExists(atPath: directory.database + "-shm"))
        let verify = try ToolProcess("streamctl", ["verify", "--db", directory.database]).finish()
        #expect(verify.status == 0, "\(verify.standardOutput) \(verify.standardError)")
        #expect(verify.standardOutput.contains("200"), "\(verify.standardOutput)")
        #expect(last == 200)
    }
}
