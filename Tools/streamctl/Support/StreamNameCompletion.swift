import ArgumentParser
import Foundation
import StreamClient
import StreamProtocol
import Synchronization

/// Shell completion of stream names, asked of the running daemon: the words typed so far say which
/// socket (`--socket`, else `STREAMD_SOCKET` and the defaults, as for any verb).
///
/// Completion runs on every Tab press, so it must be quick and silent: with no socket file it offers
/// nothing at once, and a daemon that does not answer within `deadline` is given up on; it never
/// prints an error.
///
/// Thread-safety: stateless; `names` may be called from any task.
enum StreamNameCompletion {
    /// How long completion waits for the daemon.
    static let deadline: Duration = .milliseconds(500)

    /// The completion kind for a stream-name argument.
    static var kind: CompletionKind { .custom { words, _, _ in await names(words: words) } }

    /// The streams of the daemon that `words` (the command line so far) names; empty when it cannot
    /// be asked.
    static func names(words: [String]) async -> [String] {
        let socket = StreamdDefaults.socketPath(value(of: "--socket", in: words))
        guard access(socket, F_OK) == 0 else { return [] }
        let trusted = try? Daemon.trustedDaemonUser(value(of: "--daemon-user", in: words) ?? ProcessInfo.processInfo.environment["STREAMD_DAEMON_USER"])
        let asking = Task { () -> [String] in
            guard let connection = try? await StreamConnection.connect(socketPath: socket, clientName: "streamctl-completion", trustedDaemonUser: trusted ?? nil) else { return [] }
            defer { connection.close() }
            return (try? await connection.listStreams().map(\.name)) ?? []
        }
        // Whichever comes first, the answer or the deadline; a daemon that hangs is left behind.
        return await withCheckedContinuation { continuation in
            let resumed = Mutex(false)
            let resume = { @Sendable (names: [String]) in
                if resumed.withLock({ done in defer { done = true }; return !done }) { continuation.resume(returning: names) }
            }
            Task { resume(await asking.value) }
            Task {
                try? await Task.sleep(for: deadline)
                resume([])
            }
        }
    }

    /// The value given to `option` in `words` (`--option value` or `--option=value`), the last one wins.
    private static func value(of option: String, in words: [String]) -> String? {
        var found: String?
        for (index, word) in words.enumerated() {
            if word == option, index + 1 < words.count { found = words[index + 1] }
            if word.hasPrefix(option + "=") { found = String(word.dropFirst(option.count + 1)) }
        }
        return found
    }
}
