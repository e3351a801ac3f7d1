import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

/// The default socket outside `XDG_RUNTIME_DIR` lives in `/tmp/streamd-<uid>/`, which the daemon
/// creates with mode 0700 and refuses when another user made it first or it is a symlink. These tests
/// use the real `/tmp/streamd-<uid>`, so they run only when nothing is there already.
@Suite("default socket directory", .serialized)
struct DefaultSocketDirectoryTests {
    static let directory = StreamdDefaults.fallbackSocketDirectory
    static var isFree: Bool {
        var info = stat()
        return lstat(directory, &info) != 0
    }
    static let environment = ["STREAMD_SOCKET": "", "XDG_RUNTIME_DIR": ""]

    // Skipped when /tmp/streamd-<uid> exists (a real daemon of this user may be using it).
    @Test(.enabled(if: isFree)) func theDaemonCreatesAPrivateDirectoryForItsDefaultSocket() throws {
        let state = try ShortTemporaryDirectory()
        defer { rmdir(Self.directory) }
        let daemon = try DaemonProcess(["--db", state.database], environment: Self.environment)
        try daemon.waitForError(containing: "listening")
        var info = stat()
        #expect(lstat(Self.directory, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFDIR && info.st_mode & 0o777 == 0o700 && info.st_uid == geteuid())
        _ = try SocketClient.connected(to: Self.directory + "/streamd.sock")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    // Needs root to make a second user, and a free /tmp/streamd-<uid>.
    @Test(.enabled(if: ThrowawayUser.isAvailable && isFree))
    func aDirectorySquattedByAnotherUserIsRefusedByTheDaemonAndTheClient() throws {
        let user = try ThrowawayUser()
        #expect(mkdir(Self.directory, 0o700) == 0)
        defer { rmdir(Self.directory) }
        try user.own(Self.directory)
        let state = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess(["--db", state.database], environment: Self.environment)
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.standardError.contains("the directory \(Self.directory) is owned by \(user.name) (uid \(user.uid))"))
        let ctl = try ToolProcess.run("streamctl", ["publish", "secrets", "password=hunter2"], environment: Self.environment)
        #expect(ctl.status == 1)
        #expect(ctl.standardError.contains("is owned by \(user.name) (uid \(user.uid))"))
    }

    @Test(.enabled(if: isFree)) func aSymlinkInPlaceOfTheDirectoryIsRefusedByTheDaemonAndTheClient() throws {
        let elsewhere = try ShortTemporaryDirectory()
        #expect(symlink(elsewhere.path, Self.directory) == 0)
        defer { unlink(Self.directory) }
        let state = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess(["--db", state.database], environment: Self.environment)
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.standardError.contains("\(Self.directory) is a symbolic link"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        let ctl = try ToolProcess.run("streamctl", ["ls"], environment: Self.environment)
        #expect(ctl.status == 1)
        #expect(ctl.standardError.contains("\(Self.directory) is a symbolic link"))
    }
}
