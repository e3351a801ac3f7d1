import CoreMetrics
import EventLog
import Foundation
import StreamProtocol

/// The server's metric handles: requests, bytes, connections, deliveries and errors, and the gauges
/// refreshed at each scrape.
///
/// Made with the hub, from whatever `MetricsSystem` holds then (a no-op backend unless the process
/// bootstrapped one, as `streamd --metrics` does). Counters are incremented per request, read or
/// frame, never per event.
///
/// Thread-safety: Sendable; every handle may be used from any thread.
public final class ServerMetrics: Sendable {
    /// Why a connection was refused at accept, as the `reason` label shows it.
    public enum RefusalReason: String, CaseIterable, Sendable {
        case maxConnections = "max_connections"
        case maxConnectionsPerUser = "max_connections_per_user"
        case outOfDescriptors = "out_of_descriptors"
    }

    /// PUBLISH and PUBLISH_BATCH requests, counted per request or per pipelined run.
    let publishRequests = Counter(label: ServerMetricNames.publishRequests)
    /// Bytes read from clients, counted per read.
    let receivedBytes = Counter(label: ServerMetricNames.receivedBytes)
    /// Bytes written to clients, counted per write.
    let sentBytes = Counter(label: ServerMetricNames.sentBytes)
    /// Connections accepted.
    let connectionsAccepted = Counter(label: ServerMetricNames.connectionsAccepted)
    /// Events delivered to subscribers, counted per EVENTS frame.
    let deliveredEvents = Counter(label: ServerMetricNames.deliveredEvents)
    /// Events durable consumers delivered again, counted per DELIVERIES frame.
    let redeliveredEvents = Counter(label: ServerMetricNames.redeliveredEvents)
    /// Events members acknowledged, counted per ACK.
    let acknowledgedEvents = Counter(label: ServerMetricNames.acknowledgedEvents)
    /// Events moved to dead-letter streams.
    let deadLetteredEvents = Counter(label: ServerMetricNames.deadLetteredEvents)
    private let refusals: [RefusalReason: Counter]
    private let connections = Gauge(label: ServerMetricNames.connections)
    private let subscriptions = Gauge(label: ServerMetricNames.subscriptions)
    private let catchingUp = Gauge(label: ServerMetricNames.subscriptionsCatchingUp)
    private let databaseSize = Gauge(label: ServerMetricNames.databaseSize)
    private let walSize = Gauge(label: ServerMetricNames.walSize)

    /// Handles from the current `MetricsSystem`.
    public init() {
        refusals = Dictionary(uniqueKeysWithValues: RefusalReason.allCases.map {
            ($0, Counter(label: ServerMetricNames.connectionsRefused, dimensions: [("reason", $0.rawValue)]))
        })
        Gauge(label: ServerMetricNames.buildInfo, dimensions: [("version", StreamdVersion.current)]).record(1)
    }

    /// Counts a connection refused at accept.
    func refused(_ reason: RefusalReason) {
        refusals[reason]?.increment()
    }

    /// The error codes the `code` label may name; any other is counted as `other`.
    private static let knownCodes: Set<ErrorCode> = [
        .malformedFrame, .frameTooLarge, .unknownMessage, .unsupportedVersion, .handshakeRequired,
        .invalidStreamName, .streamNotFound, .streamExists, .wrongLastSequence, .invalidArgument,
        .limitExceeded, .subscriptionNotFound, .subscriptionIDInUse, .storageFull, .storageFailure,
        .shuttingDown, .permissionDenied, .storageUnavailable, .internal, .consumerNotFound, .consumerExists,
    ]

    /// Counts an ERROR frame with `code` sent to a client.
    ///
    /// Static, as frames are encoded where no server is at hand; the handle is looked up in the
    /// current `MetricsSystem` each time, which costs a lock and a lookup: errors are not a hot path.
    static func countError(_ code: ErrorCode) {
        let name = knownCodes.contains(code) ? code.description : "other"
        Counter(label: ServerMetricNames.errors, dimensions: [("code", name)]).increment()
    }

    /// Sets the gauges read at scrape time: connections, subscriptions and the database's files.
    func refresh(connections open: Int, subscriptions live: Int, catchingUp reading: Int, log: any ServedLog) {
        connections.record(open)
        subscriptions.record(live)
        catchingUp.record(reading)
        // A PostgreSQL log has no files here: its tables' size, and no WAL of its own.
        let sqlite = log as? EventLog
        databaseSize.record(sqlite.map { DatabaseFiles.size(of: $0.path) } ?? log.databaseBytes())
        walSize.record(sqlite.map { DatabaseFiles.size(of: $0.path + "-wal") } ?? 0)
    }
}
