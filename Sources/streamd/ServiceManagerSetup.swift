import ArgumentParser
import Foundation
import Logging
import StreamServer

extension StreamServerConfiguration {
    /// Takes what a service manager such as systemd gives the daemon from `environment`: the
    /// listening socket it passed (`LISTEN_FDS`, socket activation), served instead of binding
    /// `socketPath`, and the socket to say "ready" and "stopping" on (`NOTIFY_SOCKET`, `Type=notify`).
    ///
    /// The `LISTEN_*` variables are removed once read, so no child process takes them for its own.
    /// - Throws: `ExitCode.failure`, after saying why on standard error, when the passed descriptor
    ///   is not a listening Unix stream socket.
    mutating func adoptServiceManager(environment: [String: String], logger: Logger) throws {
        serviceManager = ServiceManagerNotifier(environment: environment)
        let listener: InheritedListener?
        do {
            listener = try InheritedListener.passed(in: environment)
        } catch {
            FileHandle.standardError.write(Data("streamd: \(error)\n".utf8))
            throw ExitCode.failure
        }
        for variable in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(variable) }
        guard let listener else { return }
        inheritedListener = listener
        // The passed socket wins over --socket and STREAMD_SOCKET: it is the one clients reach.
        if let path = listener.path { socketPath = path }
        logger.info("serving the listening socket passed by the service manager (socket activation)", metadata: [
            "socket": "\(listener.path ?? "unnamed")", "descriptor": "\(listener.descriptor)",
        ])
    }
}
