import Foundation
import StreamdTestSupport
import Testing

/// The client checks who runs the daemon before sending anything: root's `streamctl publish secrets
/// password=hunter2` must not hand its payload to another user's fake daemon.
@Suite("daemon identity")
struct DaemonIdentityTests {
    /// A fake daemon: listens on `socket`, and writes whatever the first client sends to `capture`.
    private static let fakeDaemon = """
        import socket, sys
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(sys.argv[1]); server.listen(4)
        print("listening", flush=True)
        while True:
            client, _ = server.accept()
            client.settimeout(2)
            data = b""
            try:
                data = client.recv(65536)
            except Exception:
                pass
            with open(sys.argv[2], "ab") as out:
                out.write(data)
            client.close()
        """

    // Needs root to make a second user to run the fake daemon as.
    @Test(.enabled(if: ThrowawayUser.isAvailable))
    func rootsPublishRefusesAnotherUsersDaemonAndSendsItNothingUnlessThatUserIsNamed() throws {
        let user = try ThrowawayUser()
        let directory = try ShortTemporaryDirectory()
        try user.own(directory.path)
        let capture = directory.path + "/captured"
        let fake = try user.start("/usr/bin/python3", ["-c", Self.fakeDaemon, directory.socket, capture])
        defer { fake.signal(SIGTERM); _ = fake.finish(timeout: 5) }
        try fake.waitForOutput(containing: "listening")

        let refused = try ToolProcess.run("streamctl", ["publish", "--socket", directory.socket, "secrets", "password=hunter2"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("runs as \(user.name) (uid \(user.uid))"), "\(refused)")
        #expect(refused.standardError.contains("--daemon-user \(user.name)"))
        #expect(!refused.standardOutput.contains("published"))
        // The fake daemon writes what it got when the client goes; give it that moment.
        #expect(pollUntil { FileManager.default.fileExists(atPath: capture) })
        let captured = (try? Data(contentsOf: URL(fileURLWithPath: capture))) ?? Data()
        #expect(captured.isEmpty, "the client sent \(captured.count) bytes to another user's daemon")

        // Named, the user is trusted: the client talks to it (and this fake daemon then hangs up).
        let trusted = try ToolProcess.run(
            "streamctl", ["publish", "--socket", directory.socket, "s", "x"], environment: ["STREAMD_DAEMON_USER": user.name])
        #expect(trusted.status == 1)
        #expect(!trusted.standardError.contains("runs as"))
        #expect(pollUntil { ((try? Data(contentsOf: URL(fileURLWithPath: capture))) ?? Data()).count > 0 })
    }

    // Needs root to run a real streamd as a second user.
    @Test(.enabled(if: ThrowawayUser.isAvailable))
    func aRealDaemonOfAnotherUserIsUsedOnlyWithDaemonUser() throws {
        let user = try ThrowawayUser()
        let directory = try ShortTemporaryDirectory()
        try user.own(directory.path)
        let daemon = try user.start(DaemonProcess.executable, ["--socket", directory.socket, "--db", directory.database, "--socket-mode", "666"])
        defer { daemon.signal(SIGTERM); _ = daemon.finish(timeout: 10) }
        #expect(pollUntil { FileManager.default.fileExists(atPath: directory.socket) })
        let refused = try ToolProcess.run("streamctl", ["publish", "--socket", directory.socket, "s", "x"])
        #expect(refused.status == 1 && refused.standardError.contains("runs as \(user.name)"), "\(refused)")
        let named = try ToolProcess.run("streamctl", ["--daemon-user", String(user.uid), "publish", "--socket", directory.socket, "s", "x"])
        #expect(named.status == 0, "\(named)")
    }
}
