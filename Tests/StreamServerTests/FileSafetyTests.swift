import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

/// Every file the daemon touches is safe against another local user who can write its directories:
/// planted symlinks and hard links are refused and their targets left alone, the socket's mode is set
/// with no window, and the default socket's directory must be the user's alone.
@Suite("file safety")
struct FileSafetyTests {
    /// A root-owned 0600 file in another directory, the kind a planted link would aim at.
    private static func victim(in directory: ShortTemporaryDirectory, contents: String = "root's secret\n") throws -> String {
        let path = directory.path + "/victim"
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        return path
    }

    private static func contents(_ path: String) -> String? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    @Test func aLockFilePlantedAsASymlinkIsRefusedAndItsTargetIsLeftAlone() throws {
        let directory = try ShortTemporaryDirectory()
        let elsewhere = try ShortTemporaryDirectory()
        let target = try Self.victim(in: elsewhere)
        #expect(symlink(target, directory.database + ".lock") == 0)
        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", directory.database])
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.standardError.contains("the lock file \(directory.database).lock is a symbolic link"))
        #expect(Self.contents(target) == "root's secret\n")
        #expect(Self.mode(target) == 0o600)
    }

    @Test func aLockFileWithASecondHardLinkIsRefusedAndLeftAlone() throws {
        let directory = try ShortTemporaryDirectory()
        let target = try Self.victim(in: directory)
        #expect(link(target, directory.database + ".lock") == 0)
        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", directory.database])
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.standardError.contains("has 2 hard links"))
        #expect(Self.contents(target) == "root's secret\n")
    }

    /// The log's own side files get the lock file's care: a planted symlink or a second hard link at
    /// `<db>.marks` or `<db>.reserve` stops the start, and the file it leads to is left alone.
    @Test(arguments: [".marks", ".reserve"], [true, false])
    func aSideFilePlantedAsALinkIsRefusedAndItsTargetIsLeftAlone(suffix: String, symbolic: Bool) throws {
        let directory = try ShortTemporaryDirectory()
        let elsewhere = try ShortTemporaryDirectory()
        let target = try Self.victim(in: symbolic ? elsewhere : directory)
        #expect((symbolic ? symlink(target, directory.database + suffix) : link(target, directory.database + suffix)) == 0)
        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", directory.database])
        #expect(daemon.waitForExit() == 1)
        let expected = symbolic ? "is a symbolic link, which the log never follows" : "has 2 hard links"
        #expect(daemon.standardError.contains("\(directory.database)\(suffix) \(expected)"), "\(daemon.standardError)")
        #expect(Self.contents(target) == "root's secret\n")
        #expect(Self.mode(target) == 0o600)
    }

    @Test func anExistingLockFileOfTheDaemonsUserIsReusedAndNeverTruncated() throws {
        let directory = try ShortTemporaryDirectory()
        try Data("12345678901234567890\nkept\n".utf8).write(to: URL(fileURLWithPath: directory.database + ".lock"))
        let daemon = try DaemonProcess.serving(directory)
        let lock = Self.contents(directory.database + ".lock") ?? ""
        #expect(lock.hasPrefix("\(daemon.process.processIdentifier) "))
        #expect(lock.hasSuffix("\nkept\n"), "the file was truncated: \(lock.debugDescription)")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test func aDatabasePlantedAsASymlinkIsRefusedAndItsTargetIsLeftAlone() throws {
        let directory = try ShortTemporaryDirectory()
        let elsewhere = try ShortTemporaryDirectory()
        let target = try Self.victim(in: elsewhere, contents: "")
        #expect(symlink(target, directory.database) == 0)
        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", directory.database])
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.standardError.contains("symbolic link"))
        #expect(Self.contents(target) == "")
        #expect(!FileManager.default.fileExists(atPath: target + "-wal"))
    }

    @Test func aWriteAheadLogPlantedAsASymlinkIsRefusedAndItsTargetIsLeftAlone() throws {
        let directory = try ShortTemporaryDirectory()
        let elsewhere = try ShortTemporaryDirectory()
        let target = try Self.victim(in: elsewhere)
        // A database with content: SQLite opens its WAL (for a new, empty one it deletes a `-wal`
        // it finds, which removes the link and leaves its target alone).
        let first = try DaemonProcess.serving(directory)
        first.signal(SIGTERM)
        #expect(first.waitForExit() == 0)
        #expect(symlink(target, directory.database + "-wal") == 0)
        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", directory.database])
        #expect(daemon.waitForExit() == 1)
        #expect(Self.contents(target) == "root's secret\n")
    }

    @Test func aDatabaseDirectoryOthersMayWriteIsRefusedUnlessSticky() throws {
        let directory = try ShortTemporaryDirectory()
        let open = directory.path + "/open"
        #expect(mkdir(open, 0o700) == 0 && chmod(open, 0o777) == 0)
        let refused = try DaemonProcess(["--socket", directory.socket, "--db", open + "/db.sqlite"])
        #expect(refused.waitForExit() == 1)
        #expect(refused.standardError.contains("the directory \(open) has mode 777"))
        #expect(!FileManager.default.fileExists(atPath: open + "/db.sqlite.lock"))
        #expect(chmod(open, 0o1777) == 0)
        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", open + "/db.sqlite"])
        try daemon.waitForError(containing: "listening")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test func missingDatabaseDirectoriesAreCreatedWithoutFollowingAPlantedSymlink() throws {
        let directory = try ShortTemporaryDirectory()
        let elsewhere = try ShortTemporaryDirectory()
        let user = try ThrowawayUserIfAvailable()
        // A link owned by another user is never followed; one of root's own is.
        #expect(symlink(elsewhere.path, directory.path + "/state") == 0)
        if let user { try user.own(directory.path + "/state") }
        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", directory.path + "/state/streamd/db.sqlite"])
        if user != nil {
            #expect(daemon.waitForExit() == 1)
            #expect(daemon.standardError.contains("is a symbolic link owned by"))
            #expect(!FileManager.default.fileExists(atPath: elsewhere.path + "/streamd"))
        } else {
            try daemon.waitForError(containing: "listening")
            daemon.signal(SIGTERM)
            #expect(daemon.waitForExit() == 0)
        }
    }

    /// The property that closes the bind-then-chmod race: whatever another user does at the socket's
    /// final path while the socket is being bound, no file but the new socket has its mode changed.
    /// The `bind` step here plays the attacker at the worst moment: right after the socket file
    /// exists, it puts a symlink to a root-owned 0600 file at the final path.
    @Test func theSocketsModeIsNeverSetThroughASymlinkSwappedInWhileBinding() async throws {
        let directory = try ShortTemporaryDirectory()
        let elsewhere = try ShortTemporaryDirectory()
        let target = try Self.victim(in: elsewhere)
        let path = directory.socket
        await #expect(throws: StreamServerError.self) {
            _ = try await SocketFile.bindPrivately(at: path, mode: 0o666) { staging -> Int32 in
                let fd = try Self.listen(at: staging)
                unlink(path)
                symlink(target, path)
                return fd
            } close: { fd in
                close(fd)
            }
        }
        #expect(Self.mode(target) == 0o600)
        #expect(Self.contents(target) == "root's secret\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["s.sock"], "the private staging directory was left behind: \(left)")
    }

    @Test func aDaemonsSocketHasExactlyTheAskedModeAndNoStagingDirectoryIsLeft() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory, extra: ["--socket-mode", "666"])
        var info = stat()
        #expect(lstat(directory.socket, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK && info.st_mode & 0o7777 == 0o666)
        _ = try SocketClient.connected(to: directory.socket)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".sd") }
        #expect(names.isEmpty)
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    /// A listening Unix socket bound at `path`.
    static func listen(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 4) == 0 else {
            close(fd)
            throw TestFailure("cannot bind \(path): \(String(cString: strerror(errno)))")
        }
        return fd
    }
}

/// A throw-away user when this process may make one, else nil (the test then checks what it can).
func ThrowawayUserIfAvailable() throws -> ThrowawayUser? {
    ThrowawayUser.isAvailable ? try ThrowawayUser() : nil
}
