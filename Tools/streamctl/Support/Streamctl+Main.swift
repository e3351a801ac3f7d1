import ArgumentParser
import Foundation

/// streamctl's entry point: swift-argument-parser's parse-and-run, with streamctl's own failure report
/// (`FailureReport`: a sentence, or JSON with `--json`) and "did you mean" for an unknown verb. Exit
/// statuses are the parser's: 0 for help and version, 64 for bad usage, 1 for a failure.
extension Streamctl {
    /// Parses the command line, runs the verb, and reports a failure as `report(_:arguments:)` says.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try await asyncParseAsRoot(arguments)
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            report(error, arguments: arguments)
        }
    }

    /// Prints `error` the way `arguments` ask (text or JSON) and exits with its status.
    static func report(_ error: any Error, arguments: [String]) -> Never {
        let json = FailureReport.asksForJSON(arguments)
        if let failure = error as? CtlFailure {
            FailureReport(code: failure.code, message: failure.description, exitStatus: ExitCode.failure.rawValue, suggestions: failure.suggestions)
                .write(json: json)
            Foundation.exit(ExitCode.failure.rawValue)
        }
        let status = exitCode(for: error)
        // Help, --version and an exit already reported keep the parser's handling.
        if status == .success || error is ExitCode { exit(withError: error) }
        if status == .validationFailure, let verb = unknownVerb(in: arguments) {
            let suggestions = Suggestions.closest(to: verb, among: verbs, limit: 1)
            let message = "no verb '\(verb)'" + (suggestions.first.map { "; did you mean '\($0)'?" } ?? ".")
                + " `streamctl --help` lists the verbs."
            FailureReport(code: "usage", message: message, exitStatus: status.rawValue, suggestions: suggestions).write(json: json)
            Foundation.exit(status.rawValue)
        }
        guard json else { exit(withError: error) }
        let message = status == .validationFailure ? self.message(for: error) : Daemon.message(for: error, socket: "")
        FailureReport(code: status == .validationFailure ? "usage" : "failure", message: message, exitStatus: status.rawValue).write(json: json)
        Foundation.exit(status.rawValue)
    }

    /// The verbs streamctl knows (and `help`).
    static var verbs: [String] {
        configuration.subcommands.map { $0._commandName } + ["help"]
    }

    /// The first word of `arguments` that stands where the verb goes and is not one, if any: options
    /// before the verb (and the values of `--socket` and `--daemon-user`) are skipped.
    static func unknownVerb(in arguments: [String]) -> String? {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            if word == "--" { return nil }
            if word == "--socket" || word == "--daemon-user" {
                index += 2
                continue
            }
            if word.hasPrefix("-") {
                index += 1
                continue
            }
            return verbs.contains(word) ? nil : word
        }
        return nil
    }
}
