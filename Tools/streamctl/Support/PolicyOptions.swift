import ArgumentParser
import StreamProtocol

/// The retention flags `create` and `config` share.
struct PolicyOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Keep the last N events (older ones are trimmed).", valueName: "N"))
    var capacity: UInt64?

    @Flag(name: .customLong("replay-last"), help: "Keep only the latest event (capacity 1).")
    var replayLast = false

    @Flag(name: .long, help: "Keep every event until truncated (the default for a new stream).")
    var unlimited = false

    @Option(name: .customLong("max-age"), help: ArgumentHelp("Trim events older than D (500ms, 30s, 10m, 2h, 1d, 1w).", valueName: "D"))
    var maxAge: String?

    @Option(name: .customLong("max-bytes"), help: ArgumentHelp("Trim the oldest blocks beyond B stored bytes (1048576, 64K, 10MiB, 1G).", valueName: "B"))
    var maxBytes: String?

    @Flag(name: .customLong("no-max-age"), help: "Remove the age limit (config only).")
    var noMaxAge = false

    @Flag(name: .customLong("no-max-bytes"), help: "Remove the size limit (config only).")
    var noMaxBytes = false

    @Option(
        name: .customLong("dedup-events"),
        help: ArgumentHelp("Recognise a publish retried with its message id while its event is among the last N (0: never).", valueName: "N"))
    var dedupEvents: UInt64?

    @Option(
        name: .customLong("dedup-window"),
        help: ArgumentHelp("Recognise a publish retried with its message id for D after it was stored (30s, 2m, 1h).", valueName: "D"))
    var dedupWindow: String?

    @Flag(name: .customLong("dedup-default"), help: "Go back to the daemon's de-duplication window, the last 10 000 events (config only).")
    var dedupDefault = false

    /// Whether any flag was given.
    var isEmpty: Bool {
        capacity == nil && !replayLast && !unlimited && maxAge == nil && maxBytes == nil && !noMaxAge && !noMaxBytes
            && dedupEvents == nil && dedupWindow == nil && !dedupDefault
    }

    /// The flags only `config` takes, given.
    var configOnlyGiven: Bool { noMaxAge || noMaxBytes || dedupDefault }

    func validate() throws {
        guard [capacity != nil, replayLast, unlimited].filter({ $0 }).count <= 1 else {
            throw ValidationError("give at most one of --capacity, --replay-last and --unlimited.")
        }
        if capacity == 0 { throw ValidationError("--capacity must be at least 1 (use --unlimited to keep everything).") }
        if maxAge != nil, noMaxAge { throw ValidationError("--max-age and --no-max-age exclude each other.") }
        if maxBytes != nil, noMaxBytes { throw ValidationError("--max-bytes and --no-max-bytes exclude each other.") }
        if let maxAge { _ = try Parsing.milliseconds(maxAge, option: "--max-age") }
        if let maxBytes { _ = try Parsing.bytes(maxBytes, option: "--max-bytes") }
        if dedupDefault, dedupEvents != nil || dedupWindow != nil {
            throw ValidationError("--dedup-default excludes --dedup-events and --dedup-window (give those alone to set the stream's own window).")
        }
        if let dedupWindow, try Parsing.milliseconds(dedupWindow, option: "--dedup-window") == 0 {
            throw ValidationError("--dedup-window must be longer than 0 (use --dedup-events 0 to recognise no retries).")
        }
    }

    /// `base` with the flags given applied over it.
    func applied(to base: StreamPolicy) throws -> StreamPolicy {
        var policy = base
        if let capacity { policy.capacity = .last(Int(clamping: capacity)) }
        if replayLast { policy.capacity = .last }
        if unlimited { policy.capacity = .unlimited }
        if let maxAge { policy.maxAge = .milliseconds(Int64(clamping: try Parsing.milliseconds(maxAge, option: "--max-age"))) }
        if noMaxAge { policy.maxAge = nil }
        if let maxBytes { policy.maxBytes = try Parsing.bytes(maxBytes, option: "--max-bytes") }
        if noMaxBytes { policy.maxBytes = nil }
        if dedupDefault { policy.deduplication = nil }
        if dedupEvents != nil || dedupWindow != nil {
            var window = policy.deduplication ?? DeduplicationWindow()
            if let dedupEvents { window.events = dedupEvents }
            if let dedupWindow { window.duration = .milliseconds(Int64(clamping: try Parsing.milliseconds(dedupWindow, option: "--dedup-window"))) }
            policy.deduplication = window
        }
        return policy
    }
}
