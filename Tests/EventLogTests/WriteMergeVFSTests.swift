import CSQLite
import CSQLiteWriteMerge
import Foundation
import StreamdTestSupport
import Testing

/// The write-merging VFS driven directly, as SQLite's WAL writer drives it: a small write to a WAL is
/// held back, merged with a write that continues it, and written before any other call on the file.
@Suite struct WriteMergeVFSTests {
    @Test func aFrameHeaderIsHeldAndWrittenTogetherWithItsPage() throws {
        let dir = TemporaryDirectory()
        let wal = try WALFile(dir.file())
        defer { _ = wal.close() }
        try wal.write(repeating: 0x48, count: 24, at: 0)
        #expect(try bytesOnDisk(wal.path).isEmpty, "the frame header should wait for its page")
        try wal.write(repeating: 0x50, count: 4096, at: 24)
        #expect(try bytesOnDisk(wal.path) == [UInt8](repeating: 0x48, count: 24) + [UInt8](repeating: 0x50, count: 4096))
    }

    @Test func heldBytesAreWrittenBeforeAReadASizeQueryOrASync() throws {
        let dir = TemporaryDirectory()
        let wal = try WALFile(dir.file())
        defer { _ = wal.close() }
        try wal.write(repeating: 1, count: 24, at: 0)
        #expect(try wal.size() == 24)
        try wal.write(repeating: 2, count: 24, at: 24)
        #expect(try wal.read(count: 48, at: 0) == [UInt8](repeating: 1, count: 24) + [UInt8](repeating: 2, count: 24))
        try wal.write(repeating: 3, count: 32, at: 48)
        #expect(wal.file.pointee.pMethods.pointee.xSync(wal.file, SQLITE_SYNC_NORMAL) == SQLITE_OK)
        #expect(try bytesOnDisk(wal.path).count == 80)
    }

    @Test func aWriteElsewhereOrASecondSmallWriteFlushesTheHeldOneFirst() throws {
        let dir = TemporaryDirectory()
        let wal = try WALFile(dir.file())
        try wal.write(repeating: 1, count: 24, at: 0)
        try wal.write(repeating: 2, count: 4096, at: 100) // not where the held bytes end
        try wal.write(repeating: 3, count: 24, at: 24)
        try wal.write(repeating: 4, count: 8, at: 48) // contiguous but small: held in its turn
        #expect(wal.close() == SQLITE_OK, "closing writes what is still held")
        var expected = [UInt8](repeating: 0, count: 4196)
        expected.replaceSubrange(0..<24, with: repeatElement(1, count: 24))
        expected.replaceSubrange(24..<48, with: repeatElement(3, count: 24))
        expected.replaceSubrange(48..<56, with: repeatElement(4, count: 8))
        expected.replaceSubrange(100..<4196, with: repeatElement(2, count: 4096))
        #expect(try bytesOnDisk(wal.path) == expected)
    }

    @Test func writesToADatabaseFileAreNeverHeld() throws {
        let dir = TemporaryDirectory()
        let database = try WALFile(dir.file(), asWAL: false)
        defer { _ = database.close() }
        try database.write(repeating: 7, count: 24, at: 0)
        #expect(try bytesOnDisk(database.path) == [UInt8](repeating: 7, count: 24))
    }

    #if os(Linux)
    @Test func aFrameTakesOneWriteSystemCall() throws {
        let dir = TemporaryDirectory()
        let wal = try WALFile(dir.file())
        defer { _ = wal.close() }
        let before = try threadWriteSystemCalls()
        for frame in 0..<10 {
            try wal.write(repeating: 1, count: 24, at: Int64(frame * 4120))
            try wal.write(repeating: 2, count: 4096, at: Int64(frame * 4120 + 24))
        }
        #expect(try threadWriteSystemCalls() - before == 10)
    }
    #endif

    private func bytesOnDisk(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// `syscw` of /proc/thread-self/io: write system calls (pwrite included) this thread made so far.
func threadWriteSystemCalls() throws -> Int {
    let text = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
    let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("syscw:") })
    return try #require(Int(line.dropFirst("syscw:".count).trimmingCharacters(in: .whitespaces)))
}

/// A file opened as a WAL through the wrapper of SQLite's `unix` VFS, beside an empty database file
/// (the unix VFS gives a WAL its database's permissions); or, without `asWAL`, that database file.
private final class WALFile {
    let path: String
    let file: UnsafeMutablePointer<sqlite3_file>
    private let name: UnsafeMutablePointer<CChar>
    private var open = true

    init(_ databasePath: String, asWAL: Bool = true) throws {
        try #require(streamd_write_merge_register() == SQLITE_OK)
        let vfs = try #require(sqlite3_vfs_find(STREAMD_WRITE_MERGE_UNIX_VFS))
        try #require(FileManager.default.createFile(atPath: databasePath, contents: nil))
        path = asWAL ? databasePath + "-wal" : databasePath
        // SQLite keeps a file's name for as long as the file is open.
        name = try #require(strdup(path))
        let memory = UnsafeMutableRawPointer.allocate(byteCount: Int(vfs.pointee.szOsFile), alignment: 16)
        file = memory.bindMemory(to: sqlite3_file.self, capacity: 1)
        var outFlags: Int32 = 0
        let kind = asWAL ? SQLITE_OPEN_WAL : SQLITE_OPEN_MAIN_DB
        let status = vfs.pointee.xOpen(vfs, name, file, kind | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &outFlags)
        guard status == SQLITE_OK, file.pointee.pMethods != nil else {
            if file.pointee.pMethods != nil { _ = file.pointee.pMethods.pointee.xClose(file) }
            memory.deallocate()
            free(name)
            throw TestFailure("the wrapper VFS could not open \(path): SQLite code \(status)")
        }
    }

    deinit { _ = close() }

    func write(repeating byte: UInt8, count: Int, at offset: Int64) throws {
        let bytes = [UInt8](repeating: byte, count: count)
        let status = bytes.withUnsafeBytes {
            file.pointee.pMethods.pointee.xWrite(file, $0.baseAddress, Int32(count), offset)
        }
        try #require(status == SQLITE_OK)
    }

    func read(count: Int, at offset: Int64) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBytes {
            file.pointee.pMethods.pointee.xRead(file, $0.baseAddress, Int32(count), offset)
        }
        try #require(status == SQLITE_OK)
        return bytes
    }

    func size() throws -> Int64 {
        var size: sqlite3_int64 = 0
        try #require(file.pointee.pMethods.pointee.xFileSize(file, &size) == SQLITE_OK)
        return size
    }

    /// Closes the file once; returns xClose's result (SQLITE_OK on later calls).
    func close() -> Int32 {
        guard open else { return SQLITE_OK }
        open = false
        let status = file.pointee.pMethods.pointee.xClose(file)
        UnsafeMutableRawPointer(file).deallocate()
        free(name)
        return status
    }
}

@available(*, unavailable) extension WALFile: Sendable {}
