import Foundation
import StreamProtocol

extension SocketFile {
    /// Creates and checks the private directory of a default socket path (`/tmp/streamd-<uid>`, or
    /// `$XDG_RUNTIME_DIR`); nothing for a socket path the user named.
    ///
    /// - Throws: `StreamServerError` of kind `unsafeFile` when the directory is a symlink, another
    ///   user's, or open to others.
    static func preparePrivateDirectory(for socketPath: String) throws {
        guard let directory = StreamdDefaults.privateDirectory(forSocket: socketPath) else { return }
        do {
            try directory.prepare(create: true)
        } catch {
            throw StreamServerError(.unsafeFile, "cannot put the socket \(socketPath) there: \(error.description)")
        }
    }

    /// Binds a socket at `path` whose file has exactly `mode`, with no moment in which another user
    /// could make streamd change the mode of some other file.
    ///
    /// Binding at `path` and then calling `chmod(path)` leaves a window: a user who may write the
    /// directory swaps `path` for a symlink to a root-owned file between the two calls, and `chmod`
    /// follows it. Instead `bind` is called on a path in a fresh directory that only this process's
    /// user can enter (`mkdtemp` beside `path`, mode 0700, so on the same file system), the mode is set
    /// there where nobody else can swap anything, and the finished socket is hard-linked onto `path`.
    /// `link` (not `rename`) so that anything that appeared at `path` since the stale-socket check,
    /// a planted symlink or another daemon's socket, makes streamd refuse rather than replace it.
    /// `fchmod` before `bind` would also work on Linux, but NIO binds the descriptor itself.
    ///
    /// - Parameters:
    ///   - bind: binds a listening socket at the path it is given (under the umask 0177) and returns it.
    ///   - close: closes what `bind` returned, when a later step fails.
    /// - Throws: `StreamServerError` (`unsafeFile` when something appeared at `path`), or what `bind` throws.
    static func bindPrivately<Listener>(
        at path: String, mode: mode_t,
        bind: (String) async throws -> Listener, close: (Listener) async -> Void
    ) async throws -> Listener {
        var directory = (path as NSString).deletingLastPathComponent
        if directory.isEmpty { directory = "." }
        var template = Array((directory + "/.sdXXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw StreamServerError(.system, "cannot create a private directory in \(directory) to bind the socket \(path) in: \(String(cString: strerror(errno))).")
        }
        let privateDirectory = String(cString: made)
        let staging = privateDirectory + "/s"
        defer {
            unlink(staging)
            rmdir(privateDirectory)
        }
        guard staging.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw StreamServerError(.system, "the socket path \(path) is too long to bind safely (streamd binds it first as \(staging)); choose a shorter path.")
        }
        // The umask makes the kernel create the socket file with at most 0600; the mode is set below.
        let previous = umask(0o177)
        let listener: Listener
        do {
            listener = try await bind(staging)
            umask(previous)
        } catch {
            umask(previous)
            throw error
        }
        do {
            guard chmod(staging, mode) == 0 else {
                throw StreamServerError(.system, "cannot set the mode of the socket \(path): \(String(cString: strerror(errno))).")
            }
            guard link(staging, path) == 0 else {
                let reason = errno
                if reason == EEXIST {
                    throw StreamServerError(.unsafeFile, "something appeared at the socket path \(path) while streamd was binding it (another daemon, or a file or symlink planted by another user); nothing was changed. Check who put it there, remove it, and start streamd again.")
                }
                throw StreamServerError(.system, "cannot put the socket at \(path): \(String(cString: strerror(reason))).")
            }
        } catch {
            await close(listener)
            throw error
        }
        return listener
    }
}
