import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

/// `streamctl compact` through a real daemon and on a stopped daemon's file: it prints the bytes given
/// back, the file is that much smaller, the change is logged, and it needs the admin right everywhere.
@Suite(.serialized) struct CompactEndToEndTests {
    /// Publishes `batches` batches of 1 000 varied small events to `stream`.
    static func fill(_ socket: String, _ stream: String, batches: Int) throws {
        let client = try SocketClient.connected(to: socket)
        for batch in 0..<batches {
            let entries = (0..<1_000).map { index in
                ClientMessage.PublishBatch.Entry(payload: Array("{\"id\":\(batch * 1_000 + index),\"user\":\"u-\((batch * 1_000 + index) % 977)\",\"amount\":\(index % 1000)}".utf8))
            }
            guard case .publishedBatch = try client.request(.publishBatch(.init(stream: stream, entries: entries))) else {
                throw TestFailure("publishing batch \(batch) to \(stream) failed")
            }
        }
    }

    static func bytes(_ database: String) -> Int64 {
        [database, database + "-wal"].reduce(Int64(0)) { total, file in
            var status = stat()
            return total + (stat(file, &status) == 0 ? Int64(status.st_size) : 0)
        }
    }

    static func json(_ result: CommandResult) throws -> [String: Any] {
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any] else {
            throw TestFailure("streamctl compact --json failed: \(result)")
        }
        return object
    }

    /// A deletion below the daemon's 4 MiB threshold stays inside the file for appends to reuse, until
    /// compact gives it back.
    @Test func compactThroughTheDaemonGivesBackWhatARemovalFreedAndSaysHowMuch() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory)
        try Self.fill(directory.socket, "gone", batches: 100)
        try Self.fill(directory.socket, "kept", batches: 10)
        guard case .ok = try SocketClient.connected(to: directory.socket).request(.deleteStream(name: "gone")) else { throw TestFailure("rm failed") }
        let result = try ToolProcess.run("streamctl", ["--socket", directory.socket, "compact", "--json"])
        let report = try Self.json(result)
        let before = report["bytes_before"] as? Int64 ?? 0, after = report["bytes_after"] as? Int64 ?? 0
        #expect(report["source"] as? String == "daemon")
        #expect(report["rewrote"] as? Bool == false)
        #expect(report["reclaimed_bytes"] as? Int64 == before - after)
        #expect(before - after > 1 << 20, "\(result.standardOutput)")
        #expect(Self.bytes(directory.database) <= after + 64 * 1024)
        try daemon.waitForError(containing: "admin: compact")
        let text = try ToolProcess.run("streamctl", ["--socket", directory.socket, "compact"])
        #expect(text.status == 0 && text.standardOutput.hasPrefix("compacted the daemon's log: "), "\(text)")
        #expect(try ToolProcess.run("streamctl", ["--socket", directory.socket, "tail", "kept", "--all"]).lines.count == 10_000)
    }

    @Test func compactWithDbCompactsAStoppedDaemonsFile() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory)
        try Self.fill(directory.socket, "gone", batches: 100)
        try Self.fill(directory.socket, "kept", batches: 5)
        let client = try SocketClient.connected(to: directory.socket)
        guard case .ok = try client.request(.deleteStream(name: "gone")) else { throw TestFailure("rm failed") }
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let before = Self.bytes(directory.database)
        let report = try Self.json(try ToolProcess.run("streamctl", ["compact", "--db", directory.database, "--json"]))
        #expect(report["source"] as? String == "file")
        #expect(report["database"] as? String == directory.database)
        let after = Self.bytes(directory.database)
        #expect(after < before / 2, "from \(before) to \(after) bytes")
        #expect(report["bytes_before"] as? Int64 == before)
        #expect(report["reclaimed_bytes"] as? Int64 == before - after)
        let again = try DaemonProcess.serving(directory)
        defer { again.signal(SIGTERM); _ = again.waitForExit() }
        #expect(try ToolProcess.run("streamctl", ["--socket", directory.socket, "verify"]).status == 0)
    }

    @Test(.enabled(if: ThrowawayUser.isAvailable, "needs root to create throw-away users with useradd, and runuser"))
    func compactNeedsTheAdminRightOnEveryStream() throws {
        let users = try AccessUsers(count: 1)
        let admin = users.users[0]
        let directory = try AccessControlTests.sharedDirectory()
        let acl = try AccessControlTests.writeAccessFile("""
            {"rules": [{"user": "\(admin.name)", "streams": "adm.*", "allow": ["read", "publish", "admin"]}]}
            """, in: directory)
        let daemon = try AccessControlTests.daemon(directory, acl: acl)
        let refused = try users.streamctl(as: admin, ["--socket", directory.socket, "compact"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("may not compact the whole log"), "\(refused)")
        #expect(refused.standardError.contains("(permission_denied)"))
        try daemon.waitForError(containing: "refused compact")
        #expect(try AccessControlTests.asRoot(directory, ["compact"]).status == 0)
    }
}
