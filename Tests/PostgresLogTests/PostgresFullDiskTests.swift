import EventLog
import Foundation
import PostgresLog
import StreamModel
import StreamdTestSupport
import Testing

/// PostgreSQL's disk filling up: the blocks table is moved to a tablespace on a 1 MiB tmpfs, which
/// fills as a real disk does while the server itself (its WAL) goes on.
@Suite(.enabled(if: postgresAvailable, "needs root and Debian's postgresql package"))
struct PostgresFullDiskTests {
    @Test func appendsToAFullDiskAreRefusedWithASentenceAndWorkAgainOnceThereIsRoom() throws {
        let server = try PostgresServer.shared.get()
        let url = try server.makeDatabase()
        let database = String(url.split(separator: "/").last!)
        let room = try ShortTemporaryDirectory()
        let mounted = try ToolProcess.run(path: "/usr/bin/mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", room.path])
        guard mounted.status == 0 else { throw TestFailure("mount tmpfs failed: \(mounted)") }
        defer { _ = try? ToolProcess.run(path: "/usr/bin/umount", ["-l", room.path]) }
        guard let owner = getpwnam("postgres"), chown(room.path, owner.pointee.pw_uid, owner.pointee.pw_gid) == 0 else {
            throw TestFailure("chown \(room.path) to postgres failed")
        }
        let tablespace = "small_\(database)"
        try server.sql("CREATE TABLESPACE \(tablespace) LOCATION '\(room.path)'")
        defer { _ = try? server.sql("DROP TABLESPACE \(tablespace)") }
        let conditions = LockedList<StorageCondition>()
        var options = EventLogOptions()
        options.storageObserver = { conditions.append($0) }
        let address = try PostgresAddress(url)
        let log = try PostgresLog(address, options: options)
        defer { log.close() }
        try log.createStream("fills", policy: StreamPolicy())
        try server.sql("ALTER TABLE streamd.blocks SET TABLESPACE \(tablespace)", database: database)
        defer { _ = try? server.sql("ALTER TABLE streamd.blocks SET TABLESPACE pg_default", database: database) }

        // Events that do not compress, 64 KiB each: the disk is full after some sixteen.
        var generator = SystemRandomNumberGenerator()
        var stored: UInt64 = 0
        var failure: EventLogError?
        for _ in 0..<64 {
            do {
                stored = try log.append((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }, to: "fills").lastSequence
            } catch {
                failure = error as? EventLogError
                break
            }
        }
        #expect(failure?.code == .diskFull, "\(String(describing: failure))")
        #expect(failure?.message.contains("has no room left on its disk") == true, "\(String(describing: failure))")
        #expect(failure?.stream == "fills")
        #expect(try log.streamInfo("fills")?.lastSequence == stored, "nothing of the refused append was stored")
        let incompressible = (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(throws: EventLogError.self) { try log.append(incompressible, to: "fills") }
        #expect(conditions.all.map(\.isFull) == [true], "the observer hears the disk fill once, however many appends fail")
        #expect(conditions.all.first?.isServer == true && conditions.all.first?.path == address.description)
        #expect(conditions.all.first?.description.contains("has no room left on its disk: publishing is refused") == true)

        // Room again: the next append is stored after what was.
        try server.sql("ALTER TABLE streamd.blocks SET TABLESPACE pg_default", database: database)
        #expect(try log.append([1], to: "fills").firstSequence == stored + 1)
        #expect(try log.readAll("fills", from: .all).count == Int(stored) + 1)
        #expect(conditions.all.map(\.isFull) == [true, false], "and that it has room again, once")
        try log.append([2], to: "fills")
        #expect(conditions.count == 2)
    }
}
