/// The names and help texts of the metrics the event log emits through swift-metrics.
///
/// The log only emits (it never bootstraps `MetricsSystem`); a process that bootstraps a backend
/// exports them, and one that does not pays a no-op call per commit. Names follow Prometheus's
/// `<prefix>_<noun>_<unit>` with `_total` on counters; every label has a bounded set of values.
///
/// Values are immutable and Sendable.
public enum EventLogMetricNames {
    /// Counter: commits (group commits) that succeeded.
    public static let commits = "streamd_commits_total"
    /// Histogram: seconds a commit took, from its first statement to its acknowledgements.
    public static let commitDuration = "streamd_commit_duration_seconds"
    /// Histogram: events per commit (group-commit size).
    public static let commitEvents = "streamd_commit_events"
    /// Counter: events committed (published).
    public static let eventsPublished = "streamd_events_published_total"
    /// Counter, label `stream` (bounded, see `StreamLabelBound`): events committed per stream.
    public static let streamEvents = "streamd_stream_events_total"
    /// Counter, label `stream` (bounded): payload bytes committed per stream.
    public static let streamBytes = "streamd_stream_bytes_total"
    /// Counter, label `policy` (capacity, age or bytes): events dropped by retention.
    public static let retentionDropped = "streamd_retention_dropped_events_total"
    /// Histogram, label `pass` (background, held or inline): seconds a WAL checkpoint pass took.
    public static let checkpointDuration = "streamd_checkpoint_duration_seconds"

    /// Each name above with its help text (a sentence, as Prometheus's HELP line shows it).
    public static let help: [String: String] = [
        commits: "Commits (group commits) of the event log that succeeded.",
        commitDuration: "Seconds each commit took, from its first statement to its acknowledgements.",
        commitEvents: "Events per commit (the group-commit size).",
        eventsPublished: "Events committed to the event log.",
        streamEvents: "Events committed per stream; streams past the label bound are summed under stream=\"(other)\".",
        streamBytes: "Payload bytes committed per stream; streams past the label bound are summed under stream=\"(other)\".",
        retentionDropped: "Events dropped by retention, by the policy that dropped them (capacity, age or bytes).",
        checkpointDuration: "Seconds each WAL checkpoint pass took (background: beside commits; held: with commits held; inline: inside a commit that found the WAL too long).",
    ]

    /// Histogram buckets fitting each histogram above (seconds for durations).
    public static let buckets: [String: [Double]] = [
        commitDuration: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
        commitEvents: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096],
        checkpointDuration: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    ]
}
