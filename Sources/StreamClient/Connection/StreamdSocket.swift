import Foundation

/// Where clients look for the daemon's socket when they are not told.
///
/// Thread-safety: stateless; reads the environment at each call.
public enum StreamdSocket {
    /// `$STREAMD_SOCKET`, else `$XDG_RUNTIME_DIR/streamd.sock`, else `/tmp/streamd-$UID.sock`.
    public static var defaultPath: String {
        defaultPath(environment: ProcessInfo.processInfo.environment, userID: getuid())
    }

    /// The default path under a given environment and user id; empty variables count as unset.
    static func defaultPath(environment: [String: String], userID: uid_t) -> String {
        if let path = environment["STREAMD_SOCKET"], !path.isEmpty { return path }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/streamd.sock" }
        return "/tmp/streamd-\(userID).sock"
    }
}
