import Foundation

/// Why a connection to the daemon's socket failed, told apart from the file itself and the connection
/// error's reason: nothing listening (the daemon is not running), permission denied, not a socket, or a
/// path longer than a socket address holds.
///
/// Values are Sendable.
struct SocketDiagnosis: Sendable {
    /// The socket path streamctl tried.
    let path: String
    /// The connection error's own words.
    let reason: String

    /// The longest socket path the system takes (`sun_path` less its terminating zero).
    static let longestPath = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The failure to report, naming the path and what to do.
    var failure: CtlFailure {
        if path.utf8.count > Self.longestPath || reason.contains("PathTooLong") {
            return CtlFailure("""
                cannot connect to \(path): the path is \(path.utf8.count) bytes, longer than the \(Self.longestPath) bytes a Unix socket path may have.
                  Give streamd and streamctl a shorter --socket (or STREAMD_SOCKET).
                """)
        }
        var status = stat()
        if stat(path, &status) != 0 {
            let error = errno
            if error == ENOENT { return notRunning("the socket file does not exist") }
            return CtlFailure("cannot reach the socket \(path): \(String(cString: strerror(error))); check the permissions of its directories.")
        }
        if status.st_mode & S_IFMT != S_IFSOCK {
            let kind = status.st_mode & S_IFMT == S_IFDIR ? "a directory" : "a file"
            return CtlFailure("""
                \(path) is \(kind), not a socket.
                  Give --socket (or STREAMD_SOCKET) the socket file streamd listens on (streamd prints it when it starts).
                """)
        }
        if reason.contains("Permission denied") || reason.contains("errno: \(EACCES)") || reason.contains("EACCES") {
            let owner = getpwuid(status.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(status.st_uid)"
            let mode = String(status.st_mode & 0o777, radix: 8)
            return CtlFailure("""
                permission denied on the socket \(path) (owned by \(owner), mode \(mode)).
                  Run streamctl as \(owner) (the daemon's user), or start streamd with --socket-mode 660 and run streamctl in its group.
                """)
        }
        if reason.contains("Connection refused") || reason.contains("errno: \(ECONNREFUSED)") {
            return notRunning("nothing accepts connections on it")
        }
        return CtlFailure("cannot connect to streamd on \(path): \(reason)")
    }

    private func notRunning(_ why: String) -> CtlFailure {
        CtlFailure("""
            no streamd is listening on \(path) (\(why)).
              Start one with `swift run streamd` in the streamd checkout, or `streamd --socket \(path)`;
              or point streamctl at a running daemon with --socket PATH or STREAMD_SOCKET.
            """)
    }
}
