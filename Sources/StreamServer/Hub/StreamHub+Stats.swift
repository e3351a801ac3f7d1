import EventLog
import Foundation
import StreamProtocol

extension StreamHub {
    /// Daemon-wide figures: uptime, database size, streams and their events and bytes, connections,
    /// subscriptions, and what was published since start and over the last ~10 seconds.
    func stats() throws -> DaemonStats {
        let streams = try log.catalogEntries()
        let figures = try log.storageFigures(of: nil)
        let uptime = activity.uptime
        return DaemonStats(
            uptimeMilliseconds: UInt64(max(0, uptime.components.seconds * 1_000 + uptime.components.attoseconds / 1_000_000_000_000_000)),
            version: StreamdVersion.current, databasePath: log.location, databaseBytes: UInt64(max(0, log.databaseBytes())),
            streams: UInt64(streams.count), events: streams.reduce(0) { $0 + $1.info.count },
            storedBytes: figures.storedBytes, rawBytes: figures.rawBytes,
            connections: UInt32(clamping: activity.connectionCount), subscriptions: UInt32(clamping: subscriptionCount),
            publishedSinceStart: activity.publishedSinceStart, publishRateMillis: activity.rateMillis(of: nil))
    }

    /// To be called once when a connection's session starts, for the `connections` figure of `STATS`.
    func connectionOpened() { activity.connectionOpened() }

    /// To be called once when a connection's session ends.
    func connectionClosed() { activity.connectionClosed() }
}
