/// How a `StreamServer` exports metrics: where its HTTP endpoint listens and what it serves.
///
/// The server sets its scrape-time gauges (connections, subscriptions, database and WAL sizes),
/// then serves what `exposition` returns: the Prometheus text of the registry the executable
/// bootstrapped swift-metrics with. The server never bootstraps anything itself.
///
/// Values are Sendable.
public struct MetricsConfiguration: Sendable {
    /// Where the endpoint listens.
    public var address: MetricsAddress
    /// The exposition in Prometheus text format, rendered at each scrape.
    public var exposition: @Sendable () -> [UInt8]

    /// Serves `exposition` at `GET /metrics` on `address`.
    public init(address: MetricsAddress, exposition: @escaping @Sendable () -> [UInt8]) {
        self.address = address
        self.exposition = exposition
    }
}
