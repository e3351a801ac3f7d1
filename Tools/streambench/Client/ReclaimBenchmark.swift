import Foundation
import StreamProtocol

/// The `reclaim` workload (issue 15, "Give space back"): fills three streams of 200 000 small events
/// and a fourth that stays, removes the three while another connection publishes one event at a time,
/// and reports the database's size before and after the daemon gave the space back, and the publish
/// round trips while it did (against the same publishes before the removal).
///
/// Thread-safety: used from the benchmark's thread; the prober runs on a thread of its own.
struct ReclaimBenchmark {
    static let removed = ["reclaim.1", "reclaim.2", "reclaim.3"]
    static let eventsPerStream = 200_000

    /// The figures of one run.
    struct Figures {
        var bytesFull = 0.0, bytesAfter = 0.0, storedAfter = 0.0, secondsToShrink = 0.0
        var baselineMax = 0.0, baselineP999 = 0.0, reclaimMax = 0.0, reclaimP999 = 0.0, reclaimP50 = 0.0
    }

    static func run(_ daemon: Daemon) throws -> Figures {
        let client = try BenchSocket(path: daemon.socketPath)
        for stream in removed + ["reclaim.kept"] { try fill(client, stream) }
        var figures = Figures()
        figures.bytesFull = Double(fileBytes(daemon.databasePath))
        note("reclaim: filled 4 streams of \(eventsPerStream) events; database and WAL \(mebibytes(figures.bytesFull)) MiB")

        let baseline = try Prober(socketPath: daemon.socketPath).probe(seconds: 2)
        figures.baselineMax = baseline.last ?? 0
        figures.baselineP999 = percentile(baseline, 0.999)

        let prober = try Prober(socketPath: daemon.socketPath)
        let thread = Thread { prober.probeUntilStopped() }
        thread.start()
        let start = monotonicNanoseconds()
        for stream in removed {
            guard case .ok = try client.request(.deleteStream(name: stream)) else { throw BenchFailure("rm \(stream) failed") }
        }
        // The space of 600 000 events is given back in well under the 3 s the probes run for.
        usleep(3_000_000)
        let during = prober.stop()
        figures.reclaimMax = during.last ?? 0
        figures.reclaimP999 = percentile(during, 0.999)
        figures.reclaimP50 = percentile(during, 0.5)
        // The probes' one-event blocks go too; then the file is done when it has not changed for a second.
        guard case .ok = try client.request(.deleteStream(name: Prober.stream)) else { throw BenchFailure("rm \(Prober.stream) failed") }
        var last = fileBytes(daemon.databasePath), lastChange = monotonicNanoseconds()
        while seconds(since: lastChange) < 1, seconds(since: start) < 60 {
            usleep(10_000)
            let now = fileBytes(daemon.databasePath)
            if now != last { last = now; lastChange = monotonicNanoseconds() }
        }
        figures.secondsToShrink = Double(lastChange - start) / 1e9
        figures.bytesAfter = Double(fileBytes(daemon.databasePath))
        guard case let .stats(stats) = try client.request(.getStats) else { throw BenchFailure("no STATS") }
        figures.storedAfter = Double(stats.storedBytes)
        note("reclaim: after rm, \(mebibytes(figures.bytesAfter)) MiB of database and WAL for \(mebibytes(figures.storedAfter)) MiB stored, "
            + "\(String(format: "%.2f", figures.secondsToShrink)) s after the first rm; \(during.count) publishes in the 3 s after it")
        return figures
    }

    /// Publishes the stream's events in batches of 1 000, JSON-like and varied, as an application's.
    private static func fill(_ client: BenchSocket, _ stream: String) throws {
        for first in stride(from: 0, to: eventsPerStream, by: 1_000) {
            let entries = (first..<first + 1_000).map { index in
                ClientMessage.PublishBatch.Entry(payload: Array("{\"type\":\"order.created\",\"id\":\(index),\"user\":\"u-\(index % 977)\",\"amount\":\(index % 1000).\(index % 100)}".utf8))
            }
            guard case .publishedBatch = try client.request(.publishBatch(.init(stream: stream, entries: entries))) else {
                throw BenchFailure("publishing to \(stream) failed")
            }
        }
    }

    /// Bytes of the database file and its WAL.
    static func fileBytes(_ path: String) -> Int64 {
        [path, path + "-wal"].reduce(Int64(0)) { total, file in
            var status = stat()
            return total + (stat(file, &status) == 0 ? Int64(status.st_size) : 0)
        }
    }

    static func mebibytes(_ bytes: Double) -> String { String(format: "%.1f", bytes / 1_048_576) }
}

/// Publishes one event at a time on a connection of its own and keeps each round trip.
///
/// Thread-safety: Sendable in spirit; one thread probes, another calls `stop`, through the atomic-like
/// lock-protected flag and results.
private final class Prober: @unchecked Sendable {
    static let stream = "reclaim.probe"
    private let socket: BenchSocket
    private let lock = NSLock()
    private var stopped = false
    private var roundTrips: [Double] = []
    private let done = DispatchSemaphore(value: 0)

    init(socketPath: String) throws { socket = try BenchSocket(path: socketPath) }

    /// Round trips in microseconds for `seconds`, sorted.
    func probe(seconds duration: Double) throws -> [Double] {
        var times: [Double] = []
        let start = monotonicNanoseconds()
        while seconds(since: start) < duration { times.append(try once()) }
        return times.sorted()
    }

    func probeUntilStopped() {
        var times: [Double] = []
        while !lock.withLock({ stopped }) {
            guard let time = try? once() else { break }
            times.append(time)
        }
        lock.withLock { roundTrips = times }
        done.signal()
    }

    /// Stops probing; the round trips in microseconds, sorted.
    func stop() -> [Double] {
        lock.withLock { stopped = true }
        done.wait()
        return lock.withLock { roundTrips.sorted() }
    }

    private func once() throws -> Double {
        let start = monotonicNanoseconds()
        guard case .published = try socket.request(.publish(.init(stream: Self.stream, payload: Array("{\"probe\":1}".utf8)))) else {
            throw BenchFailure("a probe publish failed")
        }
        return Double(monotonicNanoseconds() - start) / 1_000
    }
}
