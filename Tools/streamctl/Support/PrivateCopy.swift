import Foundation

/// A copy of a database and its write-ahead log in a fresh private directory, for reading a crashed
/// daemon's file where streamctl cannot write, or whose journal must be stored into it first.
///
/// SQLite can read a WAL database whose log still holds frames only if it may create or use the log's
/// index (`-shm`) beside it; in a directory streamctl cannot write it cannot, so `verify --db` reads a
/// copy instead, made in a new `mkdtemp` directory (mode 0700) under `$TMPDIR` and removed when done.
/// The sources are opened without following a symlink at the `-wal` name, which no daemon would use.
///
/// Not thread-safe: one command owns it.
final class PrivateCopy {
    /// The copied database's path.
    let database: String
    private let directory: String

    /// Copies `path` and `path-wal` into a private directory, and each of the side files
    /// `path + suffix` of `sideFiles` that exists (a journal to replay, the marks to check it against).
    init(of path: String, sideFiles: [String] = []) throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/streamctl-verify.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CtlFailure("cannot make a private directory in \(base) to verify a copy of the database: \(String(cString: strerror(errno))); set TMPDIR to a directory with room.")
        }
        directory = String(cString: made)
        database = directory + "/" + ((path as NSString).lastPathComponent)
        do {
            try Self.copy(path, to: database, followingSymlink: true)
            try Self.copy(path + "-wal", to: database + "-wal", followingSymlink: false)
            for suffix in sideFiles where access(path + suffix, F_OK) == 0 {
                try Self.copy(path + suffix, to: database + suffix, followingSymlink: false)
            }
        } catch {
            remove()
            throw error
        }
    }

    /// Removes the copy and its directory.
    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func copy(_ source: String, to target: String, followingSymlink: Bool) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC | (followingSymlink ? 0 : O_NOFOLLOW))
        guard input >= 0 else { throw CtlFailure("cannot read \(source) to copy it: \(String(cString: strerror(errno))).") }
        defer { close(input) }
        let output = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw CtlFailure("cannot create \(target): \(String(cString: strerror(errno))).") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw CtlFailure("cannot read \(source): \(String(cString: strerror(errno))).") }
            if count == 0 { return }
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if step < 0 && errno == EINTR { continue }
                guard step > 0 else {
                    throw CtlFailure("cannot write the copy \(target): \(String(cString: strerror(errno))); set TMPDIR to a directory with room.")
                }
                written += step
            }
        }
    }
}
