import Foundation
import StreamdTestSupport
import Testing

/// Runs the README's walkthrough against a fresh daemon, in order, and checks that every command
/// prints what the README says.
@Suite struct WalkthroughTests {
    @Test func theWalkthroughParsesIntoItsSteps() throws {
        let steps = Walkthrough.steps(try #require(Walkthrough.readmeText(), "README.md has no walkthrough block"))
        #expect(steps.first == .run(terminal: 1, command: "swift run streamd", output: []))
        #expect(steps.contains(.expect(terminal: 3, output: [#"{"id":4,"item":"lamp"}"#])))
        #expect(steps.count == 11)
        #expect(Walkthrough.line(#"{"a":1,"t":"2026"}"#, matches: #"{"a":1,"t":"…"}"#))
        #expect(!Walkthrough.line(#"{"a":2,"t":"2026"}"#, matches: #"{"a":1,"t":"…"}"#))
        #expect(Walkthrough.line(#"{"sequence":2,"timestamp":"2027-01-01T00:00:00.000001Z","timestamp_us":1}"#,
                                 matches: #"{"sequence":2,"timestamp":"2026-11-21T17:40:02.318211Z","timestamp_us":1795282802318211}"#))
        #expect(!Walkthrough.line(#"{"sequence":3,"timestamp":"x","timestamp_us":1}"#, matches: #"{"sequence":2,"timestamp":"y","timestamp_us":2}"#))
    }

    @Test func everyCommandOfTheREADMEWalkthroughPrintsWhatItSays() throws {
        try run(try #require(Walkthrough.readmeText(), "README.md has no walkthrough block"))
    }

    private func run(_ text: String) throws {
        let directory = try ShortTemporaryDirectory()
        var daemon: DaemonProcess?
        var following: [Int: (process: ToolProcess, seen: Int)] = [:]
        let streamctl = DaemonProcess.builtExecutable(named: "streamctl")
        for step in Walkthrough.steps(text) {
            switch step {
            case let .run(_, command, output) where command == "swift run streamd":
                #expect(output.isEmpty)
                daemon = try DaemonProcess.serving(directory)
            case let .run(terminal, command, output):
                #expect(daemon != nil, "the walkthrough must start the daemon first")
                let shell = command.replacingOccurrences(of: "swift run streamctl", with: "'\(streamctl)'")
                let environment = ["STREAMD_SOCKET": directory.socket]
                if command.contains("--follow") {
                    let process = try ToolProcess(path: "/bin/sh", ["-c", "exec " + shell], environment: environment)
                    following[terminal] = (process, 0)
                    try expect(process, terminal: terminal, prints: output, following: &following)
                    continue
                }
                let result = try ToolProcess.run(path: "/bin/sh", ["-c", shell], environment: environment)
                #expect(result.status == 0, "\(command): \(result)")
                #expect(result.lines.count == output.count, "\(command) printed \(result.lines)")
                for (actual, expected) in zip(result.lines, output) {
                    #expect(Walkthrough.line(actual, matches: expected), "\(command): \(actual) is not \(expected)")
                }
            case let .expect(terminal, output):
                let running = try #require(following[terminal], "terminal \(terminal) runs no --follow command")
                try expect(running.process, terminal: terminal, prints: output, following: &following)
            }
        }
        for (_, running) in following {
            running.process.signal(SIGINT)  // Ctrl-C
            _ = running.process.finish()
        }
        daemon?.signal(SIGTERM)
        #expect(daemon?.waitForExit() == 0)
    }

    /// Waits until the running command has printed `output` after what it printed before.
    private func expect(_ process: ToolProcess, terminal: Int, prints output: [String], following: inout [Int: (process: ToolProcess, seen: Int)]) throws {
        guard let last = output.last, let seen = following[terminal]?.seen else { return }
        try process.waitForOutput(containing: last + "\n")
        let lines = process.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let new = Array(lines.dropFirst(seen))
        #expect(new.count == output.count, "terminal \(terminal) printed \(new)")
        for (actual, expected) in zip(new, output) {
            #expect(Walkthrough.line(actual, matches: expected), "terminal \(terminal): \(actual) is not \(expected)")
        }
        following[terminal]?.seen = lines.count
    }
}
