import EventLog

/// The names and help texts of the metrics the server emits through swift-metrics, and of every
/// metric a `streamd` process exports (the event log's included).
///
/// The server only emits (it never bootstraps `MetricsSystem`); the `streamd` executable does, when
/// `--metrics` is given. Names follow Prometheus's `<prefix>_<noun>_<unit>` with `_total` on
/// counters; every label has a bounded set of values.
///
/// Values are immutable and Sendable.
public enum ServerMetricNames {
    /// Counter: PUBLISH and PUBLISH_BATCH requests received.
    public static let publishRequests = "streamd_publish_requests_total"
    /// Counter: bytes read from client connections.
    public static let receivedBytes = "streamd_received_bytes_total"
    /// Counter: bytes written to client connections.
    public static let sentBytes = "streamd_sent_bytes_total"
    /// Gauge: client connections open now.
    public static let connections = "streamd_connections_open"
    /// Counter: client connections accepted.
    public static let connectionsAccepted = "streamd_connections_accepted_total"
    /// Counter, label `reason` (see `ServerMetrics.RefusalReason`): connections refused at accept.
    public static let connectionsRefused = "streamd_connections_refused_total"
    /// Gauge: live subscriptions now.
    public static let subscriptions = "streamd_subscriptions_active"
    /// Gauge: live subscriptions reading the log (catching up from disk) rather than live events.
    public static let subscriptionsCatchingUp = "streamd_subscriptions_catching_up"
    /// Counter: events delivered to subscribers and to members of durable consumers.
    public static let deliveredEvents = "streamd_delivered_events_total"
    /// Counter: events durable consumers delivered again (after their ack wait, or given back).
    public static let redeliveredEvents = "streamd_consumer_redelivered_events_total"
    /// Counter: events members of durable consumers acknowledged.
    public static let acknowledgedEvents = "streamd_consumer_acknowledged_events_total"
    /// Counter: events durable consumers moved to their dead-letter streams.
    public static let deadLetteredEvents = "streamd_consumer_dead_lettered_events_total"
    /// Counter, label `code` (a protocol error code's name): ERROR frames sent.
    public static let errors = "streamd_errors_total"
    /// Gauge: the database file's size.
    public static let databaseSize = "streamd_database_size_bytes"
    /// Gauge: the write-ahead log's size.
    public static let walSize = "streamd_wal_size_bytes"
    /// Gauge, label `version`: always 1; tells the daemon's version.
    public static let buildInfo = "streamd_build_info"

    /// Every metric a `streamd` process exports, with its help text.
    public static let help: [String: String] = EventLogMetricNames.help.merging([
        publishRequests: "PUBLISH and PUBLISH_BATCH requests received.",
        receivedBytes: "Bytes read from client connections.",
        sentBytes: "Bytes written to client connections.",
        connections: "Client connections open now.",
        connectionsAccepted: "Client connections accepted.",
        connectionsRefused: "Client connections refused at accept, by reason (max_connections, max_connections_per_user, out_of_descriptors).",
        subscriptions: "Live subscriptions now.",
        subscriptionsCatchingUp: "Live subscriptions reading the event log (catching up from disk) rather than taking live events.",
        deliveredEvents: "Events delivered to subscribers and to members of durable consumers.",
        redeliveredEvents: "Events durable consumers delivered again, after their ack wait ran out or a member gave them back.",
        acknowledgedEvents: "Events members of durable consumers acknowledged.",
        deadLetteredEvents: "Events durable consumers moved to their dead-letter streams after their last delivery.",
        errors: "ERROR frames sent to clients, by protocol error code.",
        databaseSize: "Size of the database file in bytes, read at each scrape.",
        walSize: "Size of the write-ahead log file in bytes, read at each scrape.",
        buildInfo: "Always 1; the version label tells the daemon's version.",
    ]) { first, _ in first }

    /// Histogram buckets fitting each histogram (seconds for durations).
    public static let buckets: [String: [Double]] = EventLogMetricNames.buckets
}
