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
    /// else `/tmp/streamd-<uid>.sock`.
    public static func socketPath(
        _ explicit: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let variable = environment[socketVariable], !variable.isEmpty { return variable }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return (runtime as NSString).appendingPathComponent("streamd.sock")
        }
        return "/tmp/streamd-\(getuid()).sock"
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
