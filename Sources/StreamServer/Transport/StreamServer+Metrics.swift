import NIOCore
import Logging

extension StreamServer {
    /// Starts the metrics endpoint if the configuration asks for one, logging where it listens
    /// (and warning when that is not a loopback address: the exposition names streams).
    ///
    /// - Throws: `StreamServerError` when the address cannot be bound.
    func startMetrics(hub: StreamHub) async throws -> MetricsEndpoint? {
        guard let metrics = configuration.metrics else { return nil }
        let exposition = metrics.exposition
        let endpoint = try await MetricsEndpoint.start(at: metrics.address) { [self] in
            let subscriptions = hub.liveSubscriptions()
            hub.metrics.refresh(
                connections: connectionCount, subscriptions: subscriptions.count,
                catchingUp: subscriptions.reduce(0) { $0 + ($1.isAttached ? 0 : 1) }, log: hub.log)
            return exposition()
        }
        let shown = Self.shown(endpoint.boundAddress, host: metrics.address.host)
        logger.info("metrics are served at http://\(shown)/metrics", metadata: ["metrics": "\(shown)"])
        if !metrics.address.isLoopback {
            logger.warning("the metrics endpoint listens on \(shown), which is not a loopback address: anyone who can reach it sees the names of streams; bind it to 127.0.0.1 unless that is intended", metadata: ["metrics": "\(shown)"])
        }
        return endpoint
    }

    /// `host:port` with the port actually bound (the system's pick for port 0).
    private static func shown(_ address: SocketAddress, host: String) -> String {
        let port = address.port ?? 0
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
