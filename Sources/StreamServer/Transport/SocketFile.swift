import Foundation
import StreamProtocol

/// Checks and cleans the socket path before binding.
///
/// Thread-safety: stateless; every function may be called from any thread.
enum SocketFile {
    enum State: Equatable {
        case absent
        /// A socket file nobody answers on (left by a crash).
        case stale
        /// A daemon answers; `peer` is its process id when the kernel says.
        case live(peer: Int32?)
        /// A file that is not a socket.
        case notASocket
    }

    /// What sits at `path`.
    static func state(of path: String) -> State {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .absent }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else { return .notASocket }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .stale }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return .stale }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if connected == 0 { return .live(peer: PeerCredentials(socket: fd)?.pid) }
        return errno == ECONNREFUSED ? .stale : .live(peer: nil)
    }

    /// Makes `path` free to bind: removes a stale socket, refuses a live one or a file that is not a socket.
    static func prepare(_ path: String) throws {
        switch state(of: path) {
        case .absent: return
        case .stale:
            guard unlink(path) == 0 || errno == ENOENT else {
                throw StreamServerError(.system, "cannot remove the stale socket \(path): \(String(cString: strerror(errno))).")
            }
        case let .live(peer):
            let who = peer.map { "streamd (process \($0))" } ?? "another daemon"
            throw StreamServerError(.socketInUse, "\(who) is already serving on the socket \(path); stop it first or pass another --socket.")
        case .notASocket:
            throw StreamServerError(.socketPathOccupied, "\(path) exists and is not a socket; remove it or pass another --socket.")
        }
    }
}
