import CoreMetrics

/// The writer's metric handles: commits, their duration and size, events and bytes per stream, and
/// retention drops.
///
/// Handles are made once, when the writer starts, from whatever `MetricsSystem` holds then (a no-op
/// backend unless the process bootstrapped one). With the no-op backend `isEnabled` is false and the
/// writer skips the work that only feeds metrics (clock reads, summing bytes per stream). Per-stream
/// series are counted per commit, not per event.
///
/// Thread-safety: not Sendable; owned by the log's writer (or a journaled log's sequencer, which counts
/// the commits there), which runs one commit at a time.
final class EventLogMetrics {
    /// Whether a real backend receives the metrics (false with swift-metrics' no-op one).
    let isEnabled: Bool
    /// Successful commits.
    private let commits = Counter(label: EventLogMetricNames.commits)
    /// Each commit's duration.
    private let commitDuration = CoreMetrics.Timer(label: EventLogMetricNames.commitDuration)
    /// Each commit's number of events.
    private let commitEvents = Recorder(label: EventLogMetricNames.commitEvents, aggregate: true)
    /// Events committed.
    private let eventsPublished = Counter(label: EventLogMetricNames.eventsPublished)
    /// Events dropped by retention, per policy.
    private let retentionDropped: [RetentionPolicyLabel: Counter]
    /// Which streams get series of their own.
    private var labels: StreamLabelBound
    /// The per-stream counters of each labelled stream and of `StreamLabelBound.otherStreams`.
    private var streams: [String: (events: Counter, bytes: Counter)] = [:]

    /// The policies retention drops events for, as the `policy` label shows them.
    enum RetentionPolicyLabel: String, CaseIterable {
        case capacity, age, bytes
    }

    /// Handles from the current `MetricsSystem`, labelling at most `streamLimit` streams by name.
    init(streamLimit: Int) {
        isEnabled = !(MetricsSystem.factory is NOOPMetricsHandler)
        labels = StreamLabelBound(limit: streamLimit)
        retentionDropped = Dictionary(uniqueKeysWithValues: RetentionPolicyLabel.allCases.map {
            ($0, Counter(label: EventLogMetricNames.retentionDropped, dimensions: [("policy", $0.rawValue)]))
        })
    }

    /// Counts one successful commit of `events` events that took `nanoseconds`.
    func committed(events: Int, nanoseconds: Int64) {
        commits.increment()
        eventsPublished.increment(by: Int64(events))
        commitEvents.record(events)
        commitDuration.recordNanoseconds(nanoseconds)
    }

    /// Counts one successful commit, begun at `started`, of `appends` (each a stream and its payloads).
    func committed(_ appends: some Sequence<(stream: String, payloads: [[UInt8]])>, since started: ContinuousClock.Instant) {
        let elapsed = (ContinuousClock.now - started).components
        var events = 0
        var perStream: [String: (events: Int, bytes: Int)] = [:]
        for (stream, payloads) in appends {
            events += payloads.count
            perStream[stream, default: (0, 0)].events += payloads.count
            perStream[stream, default: (0, 0)].bytes += payloads.reduce(0) { $0 + $1.count }
        }
        guard events > 0 else { return }
        committed(events: events, nanoseconds: elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
        for (stream, counts) in perStream { committed(events: counts.events, bytes: counts.bytes, to: stream) }
    }

    /// Counts `events` events of `bytes` payload bytes committed to `stream`.
    func committed(events: Int, bytes: Int, to stream: String) {
        let counters: (events: Counter, bytes: Counter)
        if let known = streams[stream] {
            counters = known
        } else {
            // Only labelled streams and "(other)" are kept, so the cache stays within the bound.
            let label = labels.label(for: stream)
            if let other = streams[label] {
                counters = other
            } else {
                counters = (
                    Counter(label: EventLogMetricNames.streamEvents, dimensions: [("stream", label)]),
                    Counter(label: EventLogMetricNames.streamBytes, dimensions: [("stream", label)]))
                streams[label] = counters
            }
        }
        counters.events.increment(by: Int64(events))
        counters.bytes.increment(by: Int64(bytes))
    }

    /// Counts `count` events dropped by retention for `policy`.
    func dropped(_ count: UInt64, by policy: RetentionPolicyLabel) {
        guard count > 0 else { return }
        retentionDropped[policy]?.increment(by: Int64(clamping: count))
    }
}

@available(*, unavailable)
extension EventLogMetrics: Sendable {}
