import Foundation

/// Where `streamd` keeps its database and socket when not told otherwise: part of the protocol's
/// conventions, so that the daemon, the client library and streamctl find the same socket by the same
/// rules.
///
/// Thread-safety: stateless; every function may be called from any thread.
public enum StreamdDefaults {
    /// The environment variable that overrides the socket path.
    public static let socketVariable = "STREAMD_SOCKET"
    /// The environment variable that overrides the database path.
    public static let databaseVariable = "STREAMD_DB"

    /// The socket path: `explicit` if given, else `$STREAMD_SOCKET`, else `$XDG_RUNTIME_DIR/streamd.sock`,
    /// else `/tmp/streamd-<uid>/streamd.sock` (in a directory only that user may enter: a bare file name
    /// in `/tmp` could be taken first by another user's fake daemon).
    public static func socketPath(
        _ explicit: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let variable = environment[socketVariable], !variable.isEmpty { return variable }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return (runtime as NSString).appendingPathComponent("streamd.sock")
        }
        return fallbackSocketDirectory + "/streamd.sock"
    }

    /// The per-user directory of the default socket when `XDG_RUNTIME_DIR` is unset: `/tmp/streamd-<uid>`.
    public static var fallbackSocketDirectory: String { "/tmp/streamd-\(getuid())" }

    /// The directory that must be private to the user (owned by them, mode 0700) for `socketPath` to be
    /// trusted, when `socketPath` is one of the default places: `/tmp/streamd-<uid>` or `$XDG_RUNTIME_DIR`.
    /// Nil for a socket the user named, whose directory is theirs to choose.
    public static func privateDirectory(
        forSocket socketPath: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> PrivateSocketDirectory? {
        if socketPath == fallbackSocketDirectory + "/streamd.sock" {
            return PrivateSocketDirectory(path: fallbackSocketDirectory, createdByDaemon: true)
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
           socketPath == (runtime as NSString).appendingPathComponent("streamd.sock") {
            return PrivateSocketDirectory(path: runtime, createdByDaemon: false)
        }
        return nil
    }

    /// The database path: `explicit` if given, else `$STREAMD_DB`, else
    /// `$XDG_STATE_HOME/streamd/streamd.sqlite`, else `~/.local/state/streamd/streamd.sqlite`.
    public static func databasePath(
        _ explicit: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let variable = environment[databaseVariable], !variable.isEmpty { return variable }
        let state: String
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty {
            state = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            state = (home as NSString).appendingPathComponent(".local/state")
        }
        return ((state as NSString).appendingPathComponent("streamd") as NSString).appendingPathComponent("streamd.sqlite")
    }
}
