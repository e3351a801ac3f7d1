import ArgumentParser
import EventLog
import Foundation
import StreamClient
import StreamProtocol

/// Runs a verb: connects to the daemon, turns every failure into a message on standard error and the
/// exit status the house style promises (64 bad usage, 1 failure).
enum Daemon {
    /// Connects as `global` says and runs `body`; failures print their reason and exit 1.
    static func run(_ global: GlobalOptions, _ body: (StreamConnection) async throws -> Void) async throws {
        try await report(socket: global.socket) {
            let connection = try await connect(global)
            defer { connection.close() }
            try await body(connection)
        }
    }

    /// Runs `body`, printing failures as streamctl reports them.
    static func report(socket: String? = nil, _ body: () async throws -> Void) async throws {
        signal(SIGPIPE, SIG_IGN)
        do {
            try await body()
        } catch is Output.BrokenPipe {
            throw ExitCode.success
        } catch let error as ValidationError {
            throw error
        } catch let error as ExitCode {
            throw error
        } catch {
            Output.error("streamctl: \(message(for: error, socket: StreamdDefaults.socketPath(socket)))")
            throw ExitCode.failure
        }
    }

    /// Opens a connection to the daemon `global` names.
    static func connect(_ global: GlobalOptions) async throws -> StreamConnection {
        let path = StreamdDefaults.socketPath(global.socket)
        let trusted = try trustedDaemonUser(global.daemonUser ?? ProcessInfo.processInfo.environment["STREAMD_DAEMON_USER"])
        do {
            return try await StreamConnection.connect(socketPath: path, clientName: "streamctl", trustedDaemonUser: trusted)
        } catch let StreamClientError.daemonNotRunning(_, reason) {
            throw SocketDiagnosis(path: path, reason: reason).failure
        }
    }

    /// The uid `--daemon-user` (or STREAMD_DAEMON_USER) names, a user name or a number.
    static func trustedDaemonUser(_ value: String?) throws -> UInt32? {
        guard let value, !value.isEmpty else { return nil }
        if let uid = UInt32(value) { return uid }
        guard let uid = UserName.uid(of: value) else {
            throw CtlFailure("no user named \"\(value)\" (from --daemon-user or STREAMD_DAEMON_USER); give a user name or a uid.")
        }
        return uid
    }

    /// Refuses a stream name the daemon would refuse, before connecting (bad usage, exit 64).
    static func validate(name: String, _ option: String = "STREAM") throws {
        do {
            try StreamName.validate(name)
        } catch {
            throw ValidationError("\(option): \(error.message)")
        }
    }

    /// The stream a "no stream named \"X\"" message of the daemon or the library names, whatever its hint.
    private static func missingStream(in text: String) -> String? {
        guard let opening = text.range(of: "no stream named \""),
            let closing = text[opening.upperBound...].firstIndex(of: "\"")
        else { return nil }
        return String(text[opening.upperBound..<closing])
    }

    /// The text for a failure: the daemon's own words, with streamctl's hint for common cases.
    static func message(for error: any Error, socket: String) -> String {
        switch error {
        case let StreamClientError.server(code, text) where code == .streamNotFound:
            guard let name = missingStream(in: text) else { return "\(text) (daemon \(socket); `streamctl ls` lists the streams)" }
            return "no stream named \"\(name)\"; create it with `streamctl create \(name)` or publish to it (daemon \(socket); `streamctl ls` lists the streams)"
        case let error as StreamClientError where missingStream(in: error.description) != nil:
            let name = missingStream(in: error.description) ?? ""
            return "no stream named \"\(name)\"; create it with `streamctl create \(name)` or publish to it (daemon \(socket); `streamctl ls` lists the streams)"
        case let StreamClientError.server(code, text):
            return "\(text.replacingOccurrences(of: "use CONFIGURE_STREAM", with: "use `streamctl config`")) (\(code))"
        case let error as StreamClientError:
            return error.description
        case let error as EventLogError:
            return error.message
        case let error as CustomStringConvertible:
            return error.description
        default:
            return "an unexpected failure: \(String(describing: error)); please report it"
        }
    }
}
