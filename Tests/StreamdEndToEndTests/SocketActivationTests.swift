import Foundation
import StreamdTestSupport
import Testing

/// `systemd-socket-activate` stands in for systemd's socket units: it binds and listens, and on the
/// first connection runs streamd with the socket as descriptor 3 (`LISTEN_FDS`, `LISTEN_PID`).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate"),
                "needs /usr/bin/systemd-socket-activate (Debian package systemd)"))
struct SocketActivationTests {
    static let activator = "/usr/bin/systemd-socket-activate"

    /// Whether `activator` listens at `path`: it says so once it has bound and listens, without a
    /// connection (which would start streamd). (A look in /proc/net/unix instead timed out in two
    /// runs of the whole suite, while other tests held thousands of sockets.)
    private static func listens(_ activator: ToolProcess, on path: String) -> Bool {
        activator.standardError.contains("Listening on \(path) as ")
    }

    /// The inode of the file at `path`, or nil when there is none.
    private func inode(_ path: String) -> UInt? {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt(info.st_ino) : nil
    }

    @Test func streamdServesThePassedSocketAndLeavesItsFileWhenItStops() throws {
        let directory = try ShortTemporaryDirectory()
        // No --socket: a daemon that bound its own would listen elsewhere and the client would hang.
        let activator = try ToolProcess(path: Self.activator, ["-l", directory.socket, DaemonProcess.executable, "--db", directory.database])
        try #require(pollUntil { Self.listens(activator, on: directory.socket) }, "systemd-socket-activate did not listen on \(directory.socket)")
        let bound = inode(directory.socket)

        // The connection that wakes the service waits in the socket's backlog until streamd takes it.
        let client = try SocketClient.connected(to: directory.socket)
        #expect(try client.publish(Array("first".utf8), to: "orders") == 1)
        #expect(try SocketClient.connected(to: directory.socket).publish(Array("second".utf8), to: "orders") == 2)

        activator.signal(SIGTERM)
        let result = activator.finish()
        #expect(result.status == 0, "\(result)")
        #expect(result.standardError.contains("socket activation"))
        // streamd's own line (the activator's "Listening on PATH" names the path too).
        #expect(result.standardError.contains("socket=\(directory.socket)"))
        // The file is the activator's: streamd neither replaced it nor removed it.
        #expect(inode(directory.socket) == bound)
    }

    @Test func aConnectionPassedInsteadOfAListeningSocketIsRefusedWithASentence() throws {
        let directory = try ShortTemporaryDirectory()
        // --accept passes each accepted connection, not the listening socket.
        let activator = try ToolProcess(path: Self.activator, ["--accept", "-l", directory.socket, DaemonProcess.executable, "--db", directory.database])
        defer { activator.signal(SIGTERM); _ = activator.finish(timeout: 10) }
        try #require(pollUntil { Self.listens(activator, on: directory.socket) })
        let client = try SocketClient(path: directory.socket)
        defer { withExtendedLifetime(client) {} }
        #expect(pollUntil { activator.standardError.contains("does not listen") },
                "stderr: \(activator.standardError)")
        #expect(activator.standardError.contains("streamd: descriptor 3 passed by the service manager (LISTEN_FDS) is a Unix stream socket that does not listen"))
        #expect(!FileManager.default.fileExists(atPath: directory.database))
    }

    @Test func aDescriptorThatIsNotASocketIsRefusedAndStreamdExitsWithFailure() throws {
        let directory = try ShortTemporaryDirectory()
        // The shell's pid is streamd's after exec, so LISTEN_PID names streamd; descriptor 3 is /dev/null.
        let result = try ToolProcess.run(path: "/bin/sh", [
            "-c", "LISTEN_PID=$$ LISTEN_FDS=1 exec \"$0\" --socket \"$1\" --db \"$2\" 3</dev/null",
            DaemonProcess.executable, directory.socket, directory.database,
        ])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("streamd: descriptor 3 passed by the service manager (LISTEN_FDS) is a character device (such as /dev/null or a terminal), not a socket."), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: directory.socket))
    }
}
