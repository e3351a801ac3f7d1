#if canImport(Glibc)
import Glibc
#endif

/// A file the log keeps beside its database (`<db>.marks`, `<db>.reserve`), opened as `OwnedFile`
/// says: never through a symbolic link, and an existing one only if it is a regular file of this
/// process's user with one link.
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
        switch OwnedFile.openOrCreate(path) {
        case .success(let opened): return SideFile(path: path, descriptor: opened.descriptor, created: opened.created)
        case .failure(let problem): throw failure(problem, path)
        }
    }

    /// Opens an existing `path` read-only; nil if there is none.
    static func openForReading(_ path: String) throws(EventLogError) -> SideFile? {
        switch OwnedFile.openForReading(path) {
        case .success(let descriptor): return descriptor.map { SideFile(path: path, descriptor: $0, created: false) }
        case .failure(let problem): throw failure(problem, path)
        }
    }

    private static func failure(_ problem: OwnedFile.Problem, _ path: String) -> EventLogError {
        let what: String
        switch problem {
        case .system(let code):
            errno = code
            return failure("cannot be opened", path)
        case .symbolicLink: what = "is a symbolic link, which the log never follows"
        case .notRegularFile: what = "is not a regular file"
        case .otherOwner(let owner): what = "is owned by user \(owner), not by user \(geteuid())"
        case .hardLinks(let count): what = "has \(count) hard links, so writing it would change another file"
        case .keepsVanishing: what = "keeps appearing and disappearing"
        }
        return EventLogError(.io, "\(path) \(what); the log keeps its own file there: remove or rename what is in the way (after checking who put it there).", path: path)
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
