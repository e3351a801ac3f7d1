import Foundation
import StreamdTestSupport
import Testing

/// streamd refuses a database whose WAL lost acknowledged events, and `--accept-lost-events` (or
/// `STREAMD_ACCEPT_LOST_EVENTS=1`) serves it without reusing a sequence (issue 14, defect 11).
@Suite struct AcceptLostEventsTests {
    @Test func streamdRefusesALogThatWentBackwardsAndTheFlagContinuesPastWhatWasAcknowledged() throws {
        let directory = try ShortTemporaryDirectory()
        let socket = directory.socket
        var daemon = try DaemonProcess.serving(directory)
        let lines = Data((1...400).map { "event \($0)\n" }.joined().utf8)
        let published = try ToolProcess.run("streamctl", ["--socket", socket, "publish", "s0", "--batch-size", "1"], input: lines)
        #expect(published.status == 0 && published.standardOutput.contains("1...400"), "\(published)")
        daemon.signal(SIGKILL)
        _ = daemon.waitForExit()

        // Bytes flipped in the middle frame of the WAL: SQLite drops it and every frame after it.
        let wal = URL(fileURLWithPath: directory.database + "-wal")
        var bytes = try [UInt8](Data(contentsOf: wal))
        let frame = 24 + 4096, frames = (bytes.count - 32) / frame
        // (Fewer with the journal: the writer stores the 400 publishes in batches of a few milliseconds.)
        try #require(frames > 20, "the WAL holds \(frames) frames")
        let offset = 32 + (frames / 2) * frame + 24 + 100
        for index in offset..<(offset + 16) { bytes[index] ^= 0xA5 }
        try Data(bytes).write(to: wal)

        let refused = try ToolProcess.run(
            path: DaemonProcess.executable, ["--socket", socket, "--db", directory.database])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.standardError.contains("went backwards") && refused.standardError.contains("--accept-lost-events"), "\(refused)")

        daemon = try DaemonProcess.serving(directory, environment: ["STREAMD_ACCEPT_LOST_EVENTS": "1"])
        let next = try ToolProcess.run("streamctl", ["--socket", socket, "publish", "s0", "after the loss"])
        #expect(next.status == 0 && next.standardOutput.contains("(sequence 401)"), "\(next)")
        let verified = try ToolProcess.run("streamctl", ["--socket", socket, "verify"])
        #expect(verified.status == 1 && verified.standardOutput.contains("went backwards"), "\(verified)")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)

        // Accepted once, the database opens without the flag.
        daemon = try DaemonProcess.serving(directory, extra: [])
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test func theFlagShowsInHelp() throws {
        let help = try ToolProcess.run(path: DaemonProcess.executable, ["--help"])
        #expect(help.standardOutput.contains("--accept-lost-events") && help.standardOutput.contains("STREAMD_ACCEPT_LOST_EVENTS"), "\(help)")
    }
}
