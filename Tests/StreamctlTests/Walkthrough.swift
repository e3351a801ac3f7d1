import Foundation

/// The README's five-minute walkthrough, exactly as a reader types it and sees it.
///
/// Format (so that the README's text itself can be checked): a line `# terminal N …` switches to
/// terminal N; a line `$ command` runs the command there (through `/bin/sh`, with `swift run streamctl`
/// meaning the built streamctl, and `swift run streamd` meaning the daemon the test starts); the lines
/// after it, up to the next `#` or `$` line, are what it prints on standard output. A command with
/// `--follow` keeps running: output lines under a later `# terminal N` heading with no command are what
/// it prints next. Blank lines are ignored. Times differ from run to run, so `"timestamp"` and
/// `"timestamp_us"` values are not compared, and `…` in an expected line stands for any text.
enum Walkthrough {
    /// The walkthrough as README.md has it: the first fenced code block there that starts the daemon
    /// with `$ swift run streamd`; nil if the README has none. The test runs this text, so the README
    /// cannot drift from what the tools print.
    static func readmeText() -> String? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        guard let readme = try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8) else { return nil }
        let blocks = readme.components(separatedBy: "```")
        // Odd pieces are inside fences; each starts with its info string (e.g. "sh") on the first line.
        for (index, block) in blocks.enumerated() where index % 2 == 1 && block.contains("$ swift run streamd\n") {
            return block.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first.map(String.init)
        }
        return nil
    }

    /// One step of the walkthrough.
    enum Step: Equatable {
        /// `$ command` in a terminal, and the lines it prints.
        case run(terminal: Int, command: String, output: [String])
        /// More lines a running `--follow` command in a terminal prints.
        case expect(terminal: Int, output: [String])
    }

    /// The steps of `text`.
    static func steps(_ text: String) -> [Step] {
        var steps: [Step] = []
        var terminal = 1
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("# terminal ") {
                terminal = Int(line.dropFirst("# terminal ".count).prefix { $0.isNumber }) ?? terminal
                steps.append(.expect(terminal: terminal, output: []))
            } else if line.hasPrefix("$ ") {
                steps.append(.run(terminal: terminal, command: String(line.dropFirst(2)), output: []))
            } else {
                switch steps.popLast() {
                case let .run(terminal, command, output)?: steps.append(.run(terminal: terminal, command: command, output: output + [line]))
                case let .expect(terminal, output)?: steps.append(.expect(terminal: terminal, output: output + [line]))
                case nil: break
                }
            }
        }
        return steps.filter { $0 != .expect(terminal: terminalOf($0), output: []) }
    }

    private static func terminalOf(_ step: Step) -> Int {
        switch step {
        case let .run(terminal, _, _), let .expect(terminal, _): terminal
        }
    }

    /// Whether `actual` is the `expected` line, where `…` stands for any text and timestamps are not compared.
    static func line(_ actual: String, matches expected: String) -> Bool {
        let actual = withoutTimestamps(actual)
        let parts = withoutTimestamps(expected).components(separatedBy: "…")
        guard parts.count > 1 else { return actual == expected }
        var rest = Substring(actual)
        for (index, part) in parts.enumerated() {
            if index == 0 {
                guard rest.hasPrefix(part) else { return false }
                rest = rest.dropFirst(part.count)
            } else if index == parts.count - 1 {
                return rest.hasSuffix(part)
            } else {
                guard let range = rest.range(of: part) else { return false }
                rest = rest[range.upperBound...]
            }
        }
        return true
    }

    private static func withoutTimestamps(_ line: String) -> String {
        line.replacingOccurrences(of: #""timestamp":"[^"]*""#, with: #""timestamp":"…""#, options: .regularExpression)
            .replacingOccurrences(of: #""timestamp_us":-?[0-9]+"#, with: #""timestamp_us":…"#, options: .regularExpression)
    }
}
