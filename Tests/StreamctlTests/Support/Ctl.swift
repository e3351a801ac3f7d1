import Foundation
import StreamdTestSupport

/// Runs the built `streamctl` against one daemon's socket (through STREAMD_SOCKET, as a user would).
struct Ctl {
    let socket: String

    init(socket: String) {
        self.socket = socket
    }

    init(_ shared: Result<SharedDaemon, any Error>) throws {
        socket = try shared.get().socket
    }

    /// Runs `streamctl arguments…` with `input` on standard input, to its end.
    @discardableResult
    func run(_ arguments: String..., input: String? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        try run(arguments, input: input.map { Data($0.utf8) }, environment: environment)
    }

    /// Runs `streamctl arguments` with `input` on standard input, to its end.
    @discardableResult
    func run(_ arguments: [String], input: Data? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        try ToolProcess.run("streamctl", arguments, environment: ["STREAMD_SOCKET": socket].merging(environment) { $1 }, input: input)
    }

    /// Starts `streamctl arguments…` and returns it running (for `tail --follow`).
    func start(_ arguments: String...) throws -> ToolProcess {
        try ToolProcess("streamctl", arguments, environment: ["STREAMD_SOCKET": socket])
    }

    /// Runs a command that must succeed and returns its standard output.
    @discardableResult
    func succeed(_ arguments: String..., input: String? = nil) throws -> String {
        let result = try run(arguments, input: input.map { Data($0.utf8) })
        guard result.status == 0 else { throw TestFailure("streamctl \(arguments.joined(separator: " ")) failed: \(result)") }
        return result.standardOutput
    }

    /// Runs `streamctl arguments… --json`, which must succeed, and parses its one JSON document.
    func json(_ arguments: String..., input: String? = nil) throws -> JSONValue {
        let result = try run(arguments + ["--json"], input: input.map { Data($0.utf8) })
        guard result.status == 0 else { throw TestFailure("streamctl \(arguments.joined(separator: " ")) --json failed: \(result)") }
        return try JSONValue.parse(result.output)
    }
}

/// A unique stream name for one test, so tests sharing a daemon never meet.
func uniqueStream(_ prefix: String) -> String {
    "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
}
