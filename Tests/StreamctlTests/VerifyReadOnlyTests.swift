import Foundation
import StreamdTestSupport
import Testing

/// Offline `verify --db` is read-only: it creates no lock file, no `-wal` and no `-shm` beside the
/// database, and works in a directory it cannot write.
@Suite("verify read-only")
struct VerifyReadOnlyTests {
    /// A stopped daemon's database with a few events, copied into a fresh directory: alone after a clean
    /// stop; after a crash with its journal and marks, where the events may still be only in the journal.
    private static func databaseAlone(crashed: Bool) throws -> ShortTemporaryDirectory {
        let served = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(served)
        try Ctl(socket: served.socket).succeed("publish", "a", input: "1\n2\n3\n")
        daemon.signal(crashed ? SIGKILL : SIGTERM)
        _ = daemon.waitForExit()
        let alone = try ShortTemporaryDirectory()
        for suffix in crashed ? ["", "-wal", ".journal", ".marks"] : ["", "-wal"]
        where FileManager.default.fileExists(atPath: served.database + suffix) {
            try FileManager.default.copyItem(atPath: served.database + suffix, toPath: alone.database + suffix)
        }
        if crashed {
            let wal = try FileManager.default.attributesOfItem(atPath: alone.database + "-wal")[.size] as? Int ?? 0
            #expect(wal > 0, "a crashed daemon leaves frames in its write-ahead log")
        }
        return alone
    }

    @Test func verifyingAStoppedDaemonsDatabaseCreatesNothingBesideIt() throws {
        let directory = try Self.databaseAlone(crashed: false)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(before == ["db.sqlite"])
        let result = try ToolProcess.run("streamctl", ["verify", "--db", directory.database])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("3 events: no problems"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before)
    }

    // Needs root to mount a read-only bind mount of the directory. A crashed daemon's log with frames
    // (or with appends its journal holds) is read from a private copy, which is removed afterwards.
    @Test(.enabled(if: geteuid() == 0), arguments: [false, true])
    func verifyingWorksInADirectoryItCannotWrite(crashed: Bool) throws {
        let directory = try Self.databaseAlone(crashed: crashed)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let mountPoint = try ShortTemporaryDirectory()
        #expect(try ToolProcess.run(path: "/bin/mount", ["--bind", directory.path, mountPoint.path]).status == 0)
        defer { _ = try? ToolProcess.run(path: "/bin/umount", [mountPoint.path]) }
        #expect(try ToolProcess.run(path: "/bin/mount", ["-o", "remount,bind,ro", mountPoint.path]).status == 0)
        let temporary = try ShortTemporaryDirectory()
        let result = try ToolProcess.run("streamctl", ["verify", "--db", mountPoint.database], environment: ["TMPDIR": temporary.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("3 events: no problems"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty, "the private copy is removed")
    }
}
