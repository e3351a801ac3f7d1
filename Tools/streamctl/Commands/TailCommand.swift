import ArgumentParser
import Foundation
import StreamClient
import StreamProtocol

/// `streamctl tail STREAM`: print a stream's events, and with --follow the live ones as they come.
struct TailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail",
        abstract: "Print the events of a stream (by default its last 10), and with --follow new ones as they are published.",
        discussion: """
            Output: each payload as is, one per line (default); --ndjson, one JSON object per line with \
            sequence, timestamp and payload (UTF-8 text, or base64 with "encoding": "base64"); --json, one \
            document holding them all (not with --follow).
            """)

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }

    @Argument(help: "The stream.", completion: StreamNameCompletion.kind)
    var stream: String

    @Flag(name: .long, help: "Start at the first retained event.")
    var all = false

    @OptionGroup var range: RangeOptions

    @Option(name: .long, help: ArgumentHelp(
        "Start at the first event at or after TIME: ISO-8601 (2026-11-21T17:40:00Z), a time ago (30s, 10m, 2h, 1d) or @SECONDS since the Unix epoch (a bare number is refused).",
        valueName: "time"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp(
        "Stop at the first event after TIME (not printed), in the forms --since takes; with --follow, also once TIME is a second past.",
        valueName: "time"))
    var until: String?

    @Flag(name: [.short, .long], help: "Keep printing new events as they are published, until interrupted; survives a daemon restart (it reconnects for about half a minute and goes on after the last event printed).")
    var follow = false

    @Option(name: .long, help: ArgumentHelp("Stop after N events.", valueName: "N"))
    var limit: UInt64?

    @Flag(name: .long, help: "Print one JSON object per event and line.")
    var ndjson = false

    private struct Document: Encodable {
        var stream: String
        var events: [EventRecord]
    }

    func validate() throws {
        try Daemon.validate(name: stream)
        let starts = [all, range.last != nil, range.fromSequence != nil, since != nil].filter { $0 }.count
        guard starts <= 1 else { throw ValidationError("give at most one of --all, --last (-n), --from-seq and --since.") }
        if options.json, ndjson { throw ValidationError("--json and --ndjson exclude each other.") }
        if options.json, follow {
            throw ValidationError("--json prints one document when the events run out, which --follow never does; use --ndjson with --follow.")
        }
        if limit == 0 { throw ValidationError("--limit must be at least 1.") }
        if let since { _ = try Parsing.time(since, option: "--since") }
        if let until { _ = try Parsing.time(until, option: "--until") }
    }

    func run() async throws {
        let start = try startPosition()
        let end = try until.map { try Parsing.time($0, option: "--until") }
        try await Daemon.run(options) { connection in
            if follow {
                // Resuming: when the daemon restarts, the follower reconnects and goes on after the last event it
                // printed, with no gap and no duplicate.
                let events = connection.events(in: stream, from: start, resume: true)
                if let end { try await follow(events, until: end) } else { try await print(events, until: nil) }
            } else {
                try await print(connection.history(of: stream, from: start), until: end)
            }
        }
    }

    /// With `--follow --until`: prints `events` as `print` does, and also stops once this machine's clock
    /// (the daemon's, which stamps the events) is a second past `end`, so a quiet stream does not keep tail
    /// waiting for an event after TIME. The second is for events stamped just before `end` and still on
    /// their way.
    private func follow(_ events: StreamSubscription<StoredEvent>, until end: Int64) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await print(events, until: end) }
            group.addTask {
                let now = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
                try await Task.sleep(for: .microseconds(max(0, end - now) + 1_000_000))
            }
            // The first to finish ends both; cancelling the printer unsubscribes.
            try await group.next()
            group.cancelAll()
        }
    }

    /// Prints `events` as the flags say, until they end, `--limit` is reached, or an event comes after
    /// `--to-seq` or after `end` (microseconds since the epoch, from `--until`).
    private func print<Events: AsyncSequence>(_ events: Events, until end: Int64?) async throws where Events.Element == StoredEvent {
        let buffer = OutputBuffer()
        var collected: [EventRecord] = []
        var printed: UInt64 = 0
        for try await event in events {
            if range.isPastEnd(event.sequence) { break }
            if let end, event.timestamp > end { break }
            if options.json {
                collected.append(EventRecord(event))
            } else if ndjson {
                try buffer.append(EventRecord(event).line())
            } else {
                try buffer.append(event.payload)
                try buffer.append(CollectionOfOne(0x0A))
            }
            if follow { try buffer.flush() }
            printed += 1
            if let limit, printed >= limit { break }
            if let last = range.toSequence, event.sequence >= last { break }
        }
        try buffer.flush()
        if options.json { try Output.json(Document(stream: stream, events: collected)) }
    }

    private func startPosition() throws -> StartPosition {
        if all { return .all }
        if let fromSequence = range.fromSequence { return .from(sequence: fromSequence) }
        if let since { return .since(microseconds: try Parsing.time(since, option: "--since")) }
        return .last(range.last ?? 10)
    }
}
