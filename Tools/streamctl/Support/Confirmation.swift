import Foundation

/// Asks the person at the terminal before something is destroyed, as `rm -i` and `nats stream rm` do:
/// the question goes to standard error (standard output stays for the result, or the JSON document) and
/// the answer is one line of standard input. Stateless; reads standard input, so one caller at a time.
enum Confirmation {
    /// Whether standard input is a terminal, that is whether someone can answer.
    static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Prints `question` and ` [y/N] `, reads one line, and says whether it was `y` or `yes` (any case,
    /// blanks around ignored). Anything else, an empty line or the end of input is no.
    static func ask(_ question: String) -> Bool {
        try? Output.write(Array("\(question) [y/N] ".utf8), to: STDERR_FILENO)
        guard let answer = readLine(strippingNewline: true) else {
            Output.error("")
            return false
        }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
