#if canImport(Glibc)
import Glibc
#endif

/// A file the log keeps beside its database (`<db>.marks`, `<db>.reserve`), opened without following
/// symbolic links: someone who can write the database's directory must not make the log write (or
/// truncate) a file of their choosing.
///
/// A new file is created with `O_CREAT | O_EXCL | O_NOFOLLOW` and mode 0600; an existing one is opened
/// `O_NOFOLLOW` and used only if it is a regular file owned by this process's user.
///
/// Thread-safety: not Sendable; owners wrap it (see `StreamMarks`, `DiskReserve`).
final class SideFile {
    let path: String
    let descriptor: Int32
    /// Whether this open created the file.
    let created: Bool

    private init(path: String, descriptor: Int32, created: Bool) {
        self.path = path
        self.descriptor = descriptor
        self.created = created
    }

    deinit { Glibc.close(descriptor) }

    /// Opens `path` for reading and writing, creating it if it does not exist.
    static func openOrCreate(_ path: String) throws(EventLogError) -> SideFile {
        let flags = O_RDWR | O_CLOEXEC | O_NOFOLLOW
        var descriptor = Glibc.open(path, flags | O_CREAT | O_EXCL, 0o600)
        if descriptor >= 0 { return SideFile(path: path, descriptor: descriptor, created: true) }
        guard errno == EEXIST else { throw failure("cannot be created", path) }
        descriptor = Glibc.open(path, flags)
        guard descriptor >= 0 else { throw failure("cannot be opened", path) }
        let file = SideFile(path: path, descriptor: descriptor, created: false)
        try file.checkOwnedRegularFile()
        return file
    }

    /// Opens an existing `path` read-only; nil if there is none.
    static func openForReading(_ path: String) throws(EventLogError) -> SideFile? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw failure("cannot be opened", path)
        }
        let file = SideFile(path: path, descriptor: descriptor, created: false)
        try file.checkOwnedRegularFile()
        return file
    }

    private func checkOwnedRegularFile() throws(EventLogError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw SideFile.failure("cannot be examined", path) }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() || geteuid() == 0 && status.st_uid == 0 else {
            throw EventLogError(
                .io,
                "\(path) is not a regular file owned by user \(geteuid()) (it is owned by \(status.st_uid)); the log keeps its own file there: remove or rename what is in the way.",
                path: path)
        }
    }

    /// The file's size in bytes.
    func size() throws(EventLogError) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw SideFile.failure("cannot be examined", path) }
        return Int(status.st_size)
    }

    /// Writes all of `bytes` at `offset`; false on failure (errno says why).
    @discardableResult
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        var done = 0
        while done < bytes.count {
            let written = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            done += written
        }
        return true
    }

    /// Reads up to `count` bytes at `offset` (fewer at the end of the file).
    func read(_ count: Int, at offset: Int) throws(EventLogError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw SideFile.failure("cannot be read", path) }
            if got == 0 { break }
            done += got
        }
        bytes.removeLast(count - done)
        return bytes
    }

    static func failure(_ what: String, _ path: String) -> EventLogError {
        let reason = String(cString: strerror(errno))
        return EventLogError(
            .io, "\(path) \(what) (\(reason)); check the permissions of the file and its directory.", path: path)
    }
}

@available(*, unavailable)
extension SideFile: Sendable {}
