import StreamProtocol

extension StreamConnection {
    /// Daemon-wide figures: uptime, version, database, streams, events, bytes, connections,
    /// subscriptions and publish rates.
    public func stats() async throws -> DaemonStats {
        let reply = try await request(.getStats)
        guard case let .stats(stats) = reply else { throw StreamClientError.protocolViolation("expected STATS, got \(reply)") }
        return stats
    }

    /// Runs the daemon's integrity check of its log and returns what it found; with `stream`, only that
    /// stream's problems (and the database-wide ones) are listed.
    ///
    /// Problems are returned, not thrown; it throws `.server(code: .streamNotFound, …)` for an unknown
    /// stream.
    public func verify(stream: String? = nil) async throws -> VerifyResult {
        let reply = try await request(.verify(stream: stream))
        guard case let .verifyReport(result) = reply else {
            throw StreamClientError.protocolViolation("expected VERIFY_REPORT, got \(reply)")
        }
        return result
    }
}
