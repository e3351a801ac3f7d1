import Foundation
import StreamdTestSupport
import Testing

/// A daemon streamctl cannot reach for another reason than not running is reported for that reason.
@Suite struct UnreachableDaemonTests {
    @Test func aDirectoryGivenAsTheSocketIsReportedAsNotASocket() throws {
        let directory = try ShortTemporaryDirectory()
        let result = try Ctl(socket: directory.path).run("ls")
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(directory.path) is a directory, not a socket."), "\(result)")
        #expect(!result.standardError.contains("no streamd is listening"), "\(result)")
    }

    @Test func aSocketPathLongerThanTheSystemLimitSaysSoAndGivesTheLimit() throws {
        let directory = try ShortTemporaryDirectory()
        let path = directory.path + "/" + String(repeating: "s", count: 120) + ".sock"
        let result = try Ctl(socket: path).run("ls")
        #expect(result.status == 1)
        #expect(result.standardError.contains("longer than the 107 bytes a Unix socket path may have"), "\(result)")
        #expect(!result.standardError.contains("no streamd is listening"), "\(result)")
    }

    @Test func aSocketWithNobodyListeningIsStillReportedAsNotRunning() throws {
        let directory = try ShortTemporaryDirectory()
        // A socket file left behind by a daemon that died: it exists, but connections are refused.
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in directory.socket.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(descriptor)
        try #require(bound == 0)
        let result = try Ctl(socket: directory.socket).run("ls")
        #expect(result.status == 1)
        #expect(result.standardError.contains("no streamd is listening on \(directory.socket) (nothing accepts connections on it)"), "\(result)")
        #expect(result.standardError.contains("`swift run streamd`"))
    }

    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv(1) to run streamctl as another user"))
    func aSocketOfAnotherUserIsReportedAsPermissionDeniedNamingItsOwner() throws {
        let fixture = try DaemonFixture()
        // The directory open to all, the socket (mode 600) to its owner only.
        try #require(chmod(fixture.directory.path, 0o755) == 0)
        let streamctl = DaemonProcess.builtExecutable(named: "streamctl")
        let result = try ToolProcess.run(
            path: "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", streamctl, "ls"],
            environment: ["STREAMD_SOCKET": fixture.socket])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("permission denied on the socket \(fixture.socket) (owned by root, mode 600)"), "\(result)")
        #expect(result.standardError.contains("--socket-mode"), "\(result)")
        #expect(!result.standardError.contains("no streamd is listening"), "\(result)")
    }
}
