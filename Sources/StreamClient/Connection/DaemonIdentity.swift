import Foundation
import StreamProtocol

/// Whether the daemon behind a socket may be trusted with what the client sends: it must run as the
/// client's own user, as root, or as the user the caller named (`trustedDaemonUser`). Otherwise
/// anybody who got to the socket path first (a squatted `/tmp` path, a socket in a directory others
/// may write) would receive the client's payloads.
///
/// Thread-safety: stateless; every function may be called from any thread or task.
enum DaemonIdentity {
    /// The environment variable naming the user (name or uid) a client also trusts as the daemon's.
    static let variable = "STREAMD_DAEMON_USER"

    /// Refuses a socket in a default place whose directory is not private to the user, before connecting.
    static func checkDirectory(of socketPath: String) throws(StreamClientError) {
        guard let directory = StreamdDefaults.privateDirectory(forSocket: socketPath) else { return }
        do {
            try directory.prepare(create: false)
        } catch {
            throw StreamClientError.untrustedDaemon(
                socketPath: socketPath,
                reason: "\(error.description) streamctl and StreamClient send nothing to a socket there.")
        }
    }

    /// Refuses the daemon whose credentials the kernel gave as `daemon` unless it runs as this
    /// process's user, root, or `trusted`.
    static func check(_ daemon: PeerCredentials?, socketPath: String, trusted: UInt32?) throws(StreamClientError) {
        guard let peer = daemon else {
            throw StreamClientError.untrustedDaemon(
                socketPath: socketPath,
                reason: "the kernel did not say which process listens on \(socketPath), so nothing was sent to it; check that it is streamd's socket.")
        }
        let me = geteuid()
        guard peer.uid != me, peer.uid != 0, peer.uid != trusted else { return }
        throw StreamClientError.untrustedDaemon(
            socketPath: socketPath,
            reason: "the process listening on \(socketPath) (pid \(peer.pid)) runs as \(UserName.describe(peer.uid)), not as you (\(UserName.describe(me))) or root, so it may not be streamd and nothing was sent to it. If you trust that user's daemon, say so with --daemon-user \(UserName.of(peer.uid) ?? String(peer.uid)) (or \(variable)); otherwise find out who started it.")
    }
}
