import ArgumentParser
import EventLog
import Foundation
import StreamClient
import StreamProtocol

/// Runs a verb: connects to the daemon, turns every failure into a message on standard error and the
/// exit status the house style promises (64 bad usage, 1 failure).
enum Daemon {
    /// Connects as `global` says and runs `body`; failures become a `CtlFailure` (exit 1) naming the reason.
    /// A stream the daemon does not know gets the closest existing names as suggestions.
    static func run(_ global: GlobalOptions, _ body: (StreamConnection) async throws -> Void) async throws {
        try await report(socket: global.socket) {
            let connection = try await connect(global)
            defer { connection.close() }
            do {
                try await body(connection)
            } catch let error where missingStream(error) != nil {
                throw await StreamSuggestions.failure(missing: missingStream(error) ?? "", connection: connection)
            }
        }
    }

    /// Runs `body`, turning its failures into the `CtlFailure` streamctl reports (or the parser's
    /// `ValidationError`, for bad usage found late).
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
        } catch let error as CtlFailure {
            throw error
        } catch {
            throw CtlFailure(message(for: error, socket: StreamdDefaults.socketPath(socket)), code: code(for: error))
        }
    }

    /// The `code` of a failure's JSON report: the daemon's error code, or what befell the connection.
    static func code(for error: any Error) -> String {
        switch error {
        case let StreamClientError.server(code, _): code.description
        case StreamClientError.daemonNotRunning: "daemon_unreachable"
        case StreamClientError.untrustedDaemon: "untrusted_daemon"
        case StreamClientError.connectionClosed: "connection_lost"
        case StreamClientError.protocolViolation, StreamClientError.codec: "protocol_violation"
        case is Interruption: "interrupted"
        case is EventLogError: "storage_failure"
        default: "failure"
        }
    }

    /// Opens a connection to the daemon `global` names.
    static func connect(_ global: GlobalOptions) async throws -> StreamConnection {
        let path = StreamdDefaults.socketPath(global.socket)
        let trusted = try trustedDaemonUser(global.daemonUser ?? ProcessInfo.processInfo.environment["STREAMD_DAEMON_USER"])
        do {
            return try await StreamConnection.connect(socketPath: path, clientName: "streamctl", trustedDaemonUser: trusted)
        } catch let StreamClientError.daemonNotRunning(_, reason) {
            var failure = SocketDiagnosis(path: path, reason: reason).failure
            failure.code = "daemon_unreachable"
            throw failure
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

    /// Refuses a consumer name that breaks the naming rules (those of stream names), saying which.
    static func validate(consumer name: String, _ option: String = "NAME") throws {
        do {
            try StreamName.validate(name)
        } catch {
            throw ValidationError("\(option): \(error.message.replacingOccurrences(of: "stream name", with: "consumer name"))")
        }
    }

    /// The stream a "no stream named \"X\"" message of the daemon or the library names, whatever its hint.
    static func missingStream(in text: String) -> String? {
        guard let opening = text.range(of: "no stream named \""),
            let closing = text[opening.upperBound...].firstIndex(of: "\"")
        else { return nil }
        return String(text[opening.upperBound..<closing])
    }

    /// The stream `error` says does not exist, if it says so.
    static func missingStream(_ error: any Error) -> String? {
        switch error {
        case let StreamClientError.server(code, text) where code == .streamNotFound: missingStream(in: text)
        case let error as StreamClientError: missingStream(in: error.description)
        default: nil
        }
    }

    /// The sentence for a stream that does not exist, with the names the user may have meant.
    static func missingStreamMessage(_ name: String, socket: String, suggestions: [String] = []) -> String {
        let quoted = suggestions.map { "\"\($0)\"" }
        let guess = switch quoted.count {
        case 0: "create it with `streamctl create \(name)` or publish to it"
        case 1: "did you mean \(quoted[0])?"
        default: "did you mean \(quoted.dropLast().joined(separator: ", ")) or \(quoted.last ?? "")?"
        }
        return "no stream named \"\(name)\"; \(guess) (daemon \(socket); `streamctl ls` lists the streams)"
    }

    /// The text for a failure: the daemon's own words, with streamctl's hint for common cases.
    static func message(for error: any Error, socket: String) -> String {
        switch error {
        case let StreamClientError.server(code, text) where code == .streamNotFound:
            guard let name = missingStream(in: text) else { return "\(text) (daemon \(socket); `streamctl ls` lists the streams)" }
            return missingStreamMessage(name, socket: socket)
        case let error as StreamClientError where missingStream(in: error.description) != nil:
            return missingStreamMessage(missingStream(in: error.description) ?? "", socket: socket)
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
