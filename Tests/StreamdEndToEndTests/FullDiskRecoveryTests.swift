import Foundation
import StreamdTestSupport
import Testing

/// A full disk is recovered from inside (issue 14, defect 1): with the database on a small tmpfs filled
/// by publishes, the real streamctl truncates, reconfigures and deletes streams through the real
/// daemon, before and after a restart, and publishing resumes without any other file being touched.
/// Mounting a tmpfs needs root: the test runs as root (CI does) and is skipped otherwise.
@Suite(.serialized) struct FullDiskRecoveryTests {
    /// A tmpfs of `megabytes` mounted inside a fresh directory, unmounted when released.
    final class SmallDisk {
        let directory: ShortTemporaryDirectory
        var mountPoint: String { directory.path + "/disk" }
        var database: String { mountPoint + "/db.sqlite" }

        init(megabytes: Int) throws {
            directory = try ShortTemporaryDirectory()
            try FileManager.default.createDirectory(atPath: directory.path + "/disk", withIntermediateDirectories: true)
            let mounted = try ToolProcess.run(path: "/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", directory.path + "/disk"])
            guard mounted.status == 0 else { throw TestFailure("mount failed: \(mounted)") }
        }

        deinit { _ = try? ToolProcess.run(path: "/bin/umount", [directory.path + "/disk"]) }
    }

    /// Lines of incompressible text, so the disk fills at the rate they are sent.
    private static let lines: Data = {
        var generator = SeededGenerator(seed: 14)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        var bytes: [UInt8] = []
        for _ in 0..<80_000 {
            for _ in 0..<300 { bytes.append(letters[Int(generator.next() % UInt64(letters.count))]) }
            bytes.append(UInt8(ascii: "\n"))
        }
        return Data(bytes)
    }()

    private func streamctl(_ socket: String, _ arguments: [String], input: Data? = nil) throws -> CommandResult {
        try ToolProcess.run("streamctl", ["--socket", socket] + arguments, input: input, timeout: 120)
    }

    /// Publishes to `stream` until the daemon answers `storage_full`, and returns how many events it
    /// acknowledged. (A small event may still fit afterwards: a failed batch of 1 000 lines leaves
    /// room that the log finds again.)
    @discardableResult
    private func fill(_ socket: String, _ stream: String) throws -> UInt64 {
        let result = try streamctl(socket, ["publish", stream], input: Self.lines)
        #expect(result.status == 1 && result.standardError.contains("storage_full"), "the disk should have filled: \(result)")
        // Batches go one after another: the refused one starts on the line after the last acknowledged.
        guard let refused = result.standardError.firstMatch(of: /lines? (\d+)/), let first = UInt64(refused.1) else {
            throw TestFailure("no refused line named: \(result)")
        }
        return first - 1
    }

    /// The last sequence of `stream`, from `streamctl info --json`.
    private func lastSequence(_ socket: String, _ stream: String) throws -> UInt64? {
        let result = try streamctl(socket, ["info", stream, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        return (object?["last_sequence"] as? NSNumber)?.uint64Value
    }

    private func expectPublishes(_ socket: String, _ stream: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        // The daemon leaves the full state once it has its reserve back, which it tries again at most
        // once a second while publishes are refused: a publish may wait for that.
        for index in 0..<3 {
            let deadline = Date(timeIntervalSinceNow: 15)
            var result = try streamctl(socket, ["publish", stream, "after the disk filled \(index)"])
            while result.status != 0, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.2)
                result = try streamctl(socket, ["publish", stream, "after the disk filled \(index)"])
            }
            #expect(result.status == 0, "publishing should have resumed: \(result)", sourceLocation: sourceLocation)
        }
    }

    private func serve(_ disk: SmallDisk) throws -> DaemonProcess {
        let daemon = try DaemonProcess(["--socket", disk.directory.socket, "--db", disk.database])
        try daemon.waitForError(containing: "listening")
        return daemon
    }

    private func stop(_ daemon: DaemonProcess) {
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0, "streamd should stop cleanly: \(daemon.standardError)")
    }

    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func truncateConfigAndDeleteWorkOnAFullDiskAndPublishingResumes() throws {
        let disk = try SmallDisk(megabytes: 20)
        let socket = disk.directory.socket
        var daemon = try serve(disk)

        // Truncation frees room, and publishing resumes.
        var acknowledged = try fill(socket, "s0")
        let truncated = try streamctl(socket, ["truncate", "s0", "--keep", "1"])
        #expect(truncated.status == 0, "\(truncated)")
        try expectPublishes(socket, "s1")
        // One warning per episode: the full and the room-again lines alternate. (A fill may make more
        // than one episode: the log has room again as soon as a checkpoint shortened a large WAL, and
        // publishes still in flight may fill it once more.)
        let changes = daemon.standardError.split(separator: "\n").compactMap { line -> Character? in
            line.contains("is full (") ? "F" : line.contains("has room again") ? "R" : nil
        }
        #expect(changes.first == "F" && changes.last == "R", "\(daemon.standardError)")
        #expect(!String(changes).contains("FF") && !String(changes).contains("RR"), "one warning per episode: \(daemon.standardError)")

        // Full again, then killed and restarted while full (the WAL still holds its pages, the
        // reserve is given back): a byte limit frees room.
        acknowledged += try fill(socket, "s0")
        daemon.signal(SIGKILL)
        _ = daemon.waitForExit()
        daemon = try serve(disk)
        let configured = try streamctl(socket, ["config", "s0", "--max-bytes", "100000"])
        #expect(configured.status == 0, "\(configured)")
        try expectPublishes(socket, "s1")
        #expect(try lastSequence(socket, "s0") == acknowledged, "every event acknowledged before the SIGKILL is back")

        // Full again: deleting the stream frees room.
        try fill(socket, "s2")
        let removed = try streamctl(socket, ["rm", "s2"])
        #expect(removed.status == 0, "\(removed)")
        try expectPublishes(socket, "s1")
        let verified = try streamctl(socket, ["verify"])
        #expect(verified.status == 0, "\(verified)")
        stop(daemon)
    }
}
