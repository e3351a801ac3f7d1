import Dispatch
import Foundation
import PostgresLog
import StreamProtocol

/// The client workloads, the same as `../shared/peers/run-peers.sh` gives Redis Streams and NATS
/// JetStream (N events of P bytes, one client, a window of 64 publishes in flight, one-at-a-time round
/// trips, a late reader from the start, 16 publishers one at a time each), plus end-to-end latency at a
/// fixed rate and fan-out.
/// Each run starts a fresh `streamd` on a database of its own.
struct ClientBenchmark {
    static let window = 64
    /// One-at-a-time publishes timed: 5 000, or the workload's event count when that is smaller, so
    /// that a short run stays short on a loaded machine, where every round trip waits for a core.
    var roundTrips: Int { min(5_000, arguments.events) }
    /// `PING`s timed against each server: 20 000 (enough that the daemon's CPU, which the kernel counts
    /// in 10 ms ticks, is read to a few per cent), or the event count when that is smaller.
    var pingRoundTrips: Int { min(20_000, arguments.events) }
    /// The `latency` workload: 20 000 events, one every 100 µs (10 000 a second for two seconds).
    static let latencyEvents = 20_000
    static let latencyInterval: UInt64 = 100_000

    let arguments: Arguments
    init(_ arguments: Arguments) { self.arguments = arguments }

    private struct Figures {
        var ping: [PingBenchmark.Figures] = []
        var roundTrip: [Double] = [], publish: [Double] = [], replay: [Double] = []
        var manyPublishers: [ManyPublishersBenchmark.Figures] = []
        var group: [Double] = []
        var latency = LatencyFigures(), floor = LatencyFigures(), across = LatencyFigures(), near = LatencyFigures()
        var fanOut: [Double] = [], fanOutPublish: [Double] = []
        var resident: [Double] = [], peak: [Double] = []
        var createFirst: [Double] = [], createLast: [Double] = []
        var trickleCPU: [Double] = []
        var reclaim: [ReclaimBenchmark.Figures] = []
    }

    private func runs(_ workload: String) -> Bool { arguments.only.isEmpty || arguments.only.contains(workload) }

    /// Runs `body` when `--only` names `workload` (or names none), noting on stderr how long it took,
    /// so that a run stopped from outside shows which workload it was in.
    private func measure(_ workload: String, when chosen: Bool? = nil, _ body: () throws -> Void) rethrows {
        guard chosen ?? runs(workload) else { return }
        let start = monotonicNanoseconds()
        try body()
        note("\(workload) took \(String(format: "%.1f", Double(monotonicNanoseconds() - start) / 1e9)) s")
    }

    func run() throws {
        let payload = [UInt8](repeating: UInt8(ascii: "x"), count: arguments.payload)
        let fanOutEvents = max(1, arguments.events / 10)
        note("workload: \(arguments.events) events of \(arguments.payload) B, window \(Self.window), durability \(arguments.durability), "
            + "database \(arguments.database.map { "\($0) (its streamd tables removed before each run)" } ?? "an SQLite file per run")")
        var figures = Figures()
        for run in 0..<arguments.runs {
            let directory = arguments.directory + "/client-\(run)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            if let database = arguments.database { try PostgresLog.removeTables(database) }
            let daemon = try Daemon(
                executable: arguments.streamd, directory: directory, durability: arguments.durability, database: arguments.database,
                extraArguments: arguments.metrics ? ["--metrics", "127.0.0.1:0"] : [])
            defer { daemon.stop() }

            let client = try BenchSocket(path: daemon.socketPath)
            try measure("ping") { figures.ping.append(try PingBenchmark.run(client, daemon: daemon, directory: directory, roundTrips: pingRoundTrips)) }
            try measure("rtt") { figures.roundTrip.append(try roundTrip(client, payload: payload)) }
            try measure("publish", when: runs("publish") || runs("replay")) { figures.publish.append(try publish(client, payload: payload)) }
            try measure("replay") { figures.replay.append(try replay(daemon.socketPath, expected: arguments.events + (runs("rtt") ? roundTrips + 1 : 0))) }
            try measure("many") {
                figures.manyPublishers.append(try ManyPublishersBenchmark.run(daemon, events: arguments.events, payload: payload))
            }
            try measure("group") {
                figures.group.append(try ConsumerGroupBenchmark.run(daemon.socketPath, events: arguments.events, payload: payload))
            }
            try measure("latency") {
                figures.floor.append(try RelayFloor.latencies(count: Self.latencyEvents, interval: Self.latencyInterval))
                figures.latency.append(try latencyAtFixedRate(publishingTo: daemon.socketPath, readingFrom: daemon.socketPath, payload: payload))
            }
            // Two daemons on one PostgreSQL database: publish through one, subscribe through the other;
            // first the same rate to a subscriber on the publishing daemon, which is told without a
            // notification or a read, so the difference between the two is what crossing costs.
            if let database = arguments.database {
                try measure("across") {
                    figures.near.append(try latencyAtFixedRate(
                        publishingTo: daemon.socketPath, readingFrom: daemon.socketPath, payload: payload, count: 10_000, interval: 1_000_000, stream: "near"))
                    let otherDirectory = directory + "/other"
                    try FileManager.default.createDirectory(atPath: otherDirectory, withIntermediateDirectories: true)
                    let other = try Daemon(executable: arguments.streamd, directory: otherDirectory, durability: arguments.durability, database: database)
                    defer { other.stop() }
                    figures.across.append(try latencyAtFixedRate(
                        publishingTo: daemon.socketPath, readingFrom: other.socketPath, payload: payload, count: 10_000, interval: 1_000_000, stream: "across"))
                }
            }
            try measure("fanout") {
                let fanOut = try fanOut(daemon.socketPath, payload: payload, events: fanOutEvents, subscribers: 100)
                figures.fanOut.append(fanOut.deliveries)
                figures.fanOutPublish.append(fanOut.publish)
            }
            try measure("trickle") { figures.trickleCPU.append(try trickle(client, payload: payload, daemon: daemon)) }
            // Only when named: it takes minutes where creation cost grows with the stream count.
            try measure("create", when: arguments.only.contains("create")) {
                let batches = try StreamCreationBenchmark.run(client)
                figures.createFirst.append(batches.first ?? 0)
                figures.createLast.append(batches.last ?? 0)
            }
            // Only when named: it fills 800 000 events first.
            try measure("reclaim", when: arguments.only.contains("reclaim")) { figures.reclaim.append(try ReclaimBenchmark.run(daemon)) }
            let memory = daemon.memory
            figures.resident.append(memory.resident)
            figures.peak.append(memory.peak)
        }
        var lines: [(String, [Double], String, String)] = [
            ("ping", figures.ping.map(\.roundTrip), "us", "PING round trip, the transport alone, \(pingRoundTrips) round trips"),
            ("ping_daemon_cpu", figures.ping.map(\.daemonMicroseconds), "us", "the daemon's CPU time per PING, all its threads"),
            ("ping_floor", figures.ping.map(\.floorRoundTrip), "us", "PING round trip to a bare poll-loop server in the daemon's place, same client"),
            ("ping_floor_cpu", figures.ping.map(\.floorMicroseconds), "us", "the bare server's CPU time per PING"),
            ("rtt", figures.roundTrip, "us", "one publish at a time, \(roundTrips) round trips"),
            ("publish", figures.publish, "events/s", "window \(Self.window), acknowledged after commit"),
            ("replay", figures.replay, "events/s", "late reader from the start"),
            ("many_publishers", figures.manyPublishers.map(\.rate), "events/s", "\(ManyPublishersBenchmark.clients) clients, one publish at a time each"),
            ("many_daemon_cpu", figures.manyPublishers.map(\.daemonMicroseconds), "us", "the daemon's CPU time per acknowledged publish in many, all its threads"),
            ("many_client_cpu", figures.manyPublishers.map(\.clientMicroseconds), "us", "the 16 publishers' CPU time per acknowledged publish in many"),
            ("group_consume", figures.group, "events/s", "\(ConsumerGroupBenchmark.members) members of one durable consumer, credit \(ConsumerGroupBenchmark.credit), every event acknowledged"),
        ]
        lines += figures.latency.lines("latency", "publish to subscriber at 10k events/s")
        lines += figures.floor.lines("latency_floor", "the machine's floor beside latency: two Unix-socket hops through a relay thread, 10k/s")
        lines += figures.across.lines("across", "publish through one daemon to a subscriber on another, 1k events/s")
        lines += figures.near.lines("near", "publish to a subscriber on the same daemon, 1k events/s, beside across")
        lines += [
            ("fanout_deliveries", figures.fanOut, "events/s", "100 subscribers, \(fanOutEvents) events each"),
            ("fanout_publish", figures.fanOutPublish, "events/s", "publishing while 100 subscribers read"),
            ("trickle_daemon_cpu", figures.trickleCPU, "cores",
             "the daemon's CPU time per second while \(Self.trickleRate) publishes a second come one at a time for \(Self.trickleSeconds) s"),
            ("create_first_batch", figures.createFirst, "s", "creating streams 1...2000, one request at a time"),
            ("create_last_batch", figures.createLast, "s", "creating streams 98001...100000, one request at a time"),
        ]
        for (metric, values, unit, detail) in lines where !values.isEmpty {
            report(metric, median(values), unit, detail)
        }
        if !figures.reclaim.isEmpty {
            let reclaim = figures.reclaim
            report("reclaim_bytes_full", median(reclaim.map(\.bytesFull)) / 1_048_576, "MiB", "database and WAL, 4 streams of 200 000 events")
            report("reclaim_bytes_after", median(reclaim.map(\.bytesAfter)) / 1_048_576, "MiB", "database and WAL once 3 were removed and the space given back")
            report("reclaim_stored_after", median(reclaim.map(\.storedAfter)) / 1_048_576, "MiB", "stored bytes left (the kept stream)")
            report("reclaim_seconds", median(reclaim.map(\.secondsToShrink)), "s", "from the first rm to the file's last change (includes 3 s of probes and the probe stream's rm)")
            report("reclaim_rtt_max", median(reclaim.map(\.reclaimMax)), "us", "longest one-at-a-time publish in the 3 s after the first rm")
            report("reclaim_rtt_p999", median(reclaim.map(\.reclaimP999)), "us", "p99.9 of those publishes")
            report("reclaim_rtt_p50", median(reclaim.map(\.reclaimP50)), "us", "median of those publishes")
            report("reclaim_baseline_rtt_max", median(reclaim.map(\.baselineMax)), "us", "longest publish in 2 s before the rm, for comparison")
            report("reclaim_baseline_rtt_p999", median(reclaim.map(\.baselineP999)), "us", "p99.9 of those")
        }
        report("daemon_rss", median(figures.resident), "MiB", "resident after all workloads")
        report("daemon_peak_rss", median(figures.peak), "MiB", "peak resident during all workloads")
    }

    /// Microseconds per publish when each waits for its acknowledgement.
    private func roundTrip(_ client: BenchSocket, payload: [UInt8]) throws -> Double {
        let message = ClientMessage.publish(.init(stream: "bench", payload: payload))
        _ = try client.request(message)
        let start = monotonicNanoseconds()
        for _ in 0..<roundTrips {
            guard case .published = try client.request(message) else { throw BenchFailure("a round trip failed") }
        }
        return Double(monotonicNanoseconds() - start) / 1_000 / Double(roundTrips)
    }

    /// The trickle: a few hundred publishes a second, each waiting for its acknowledgement.
    static let trickleRate = 475, trickleSeconds = 8

    /// The daemon's CPU cores while a trickle of publishes comes: what serving light traffic costs,
    /// wake-up latency work included.
    private func trickle(_ client: BenchSocket, payload: [UInt8], daemon: Daemon) throws -> Double {
        let message = ClientMessage.publish(.init(stream: "trickle", payload: payload))
        let count = Self.trickleRate * Self.trickleSeconds, interval = 1_000_000_000 / UInt64(Self.trickleRate)
        let cpuBefore = daemon.cpuSeconds, start = monotonicNanoseconds()
        for index in 0..<count {
            sleep(untilNanoseconds: start + UInt64(index) * interval)
            guard case .published = try client.request(message) else { throw BenchFailure("a trickle publish failed") }
        }
        return (daemon.cpuSeconds - cpuBefore) / seconds(since: start)
    }

    private func publish(_ client: BenchSocket, payload: [UInt8]) throws -> Double {
        let start = monotonicNanoseconds()
        try client.publishPipelined(arguments.events, payload: payload, to: "bench", window: Self.window)
        return Double(arguments.events) / seconds(since: start)
    }

    /// Events per second for a new connection reading the whole stream.
    private func replay(_ socketPath: String, expected: Int) throws -> Double {
        let reader = try BenchSocket(path: socketPath)
        let start = monotonicNanoseconds()
        let subscription = try BenchSubscription(socket: reader, stream: "bench", from: .all)
        try subscription.read(until: expected)
        return Double(expected) / seconds(since: start)
    }

    /// Publishes `count` events, one every `interval` nanoseconds (by default 10 000 events/s for two
    /// seconds), each payload carrying its send time, and measures how long each takes to reach a
    /// subscriber on another connection (to the same daemon or, for `across`, another). The 99.9th
    /// percentile of 20 000 is the 20th slowest: it shows the stalls a median and a p99 hide.
    private func latencyAtFixedRate(
        publishingTo publisherSocket: String, readingFrom readerSocket: String, payload: [UInt8],
        count: Int = latencyEvents, interval: UInt64 = latencyInterval, stream: String = "latency"
    ) throws -> LatencyPercentiles {
        let publisher = try BenchSocket(path: publisherSocket)
        let reader = try BenchSocket(path: readerSocket)
        _ = try publisher.request(.publish(.init(stream: stream, payload: payload)))
        let subscription = try BenchSubscription(socket: reader, stream: stream, from: .newOnly)
        let acknowledgements = BackgroundWork { try publisher.awaitPublished(count) }
        let received = BackgroundWork { () throws -> [Double] in
            var latencies: [Double] = []
            latencies.reserveCapacity(count)
            try subscription.read(until: count) { event in
                let sent = timestamp(from: event.payload)
                latencies.append(Double(monotonicNanoseconds() - sent) / 1_000)
            }
            return latencies
        }
        // The send time fills the first 8 bytes, so a shorter payload is padded for this workload.
        let template = PublishTemplate(stream: stream, payload: payload + [UInt8](repeating: 0, count: max(0, 8 - payload.count)))
        let start = monotonicNanoseconds()
        var frame: [UInt8] = []
        for index in 0..<count {
            sleep(untilNanoseconds: start + UInt64(index) * interval)
            frame.removeAll(keepingCapacity: true)
            template.append(requestID: UInt32(index + 10), payloadPrefix: timestampBytes(monotonicNanoseconds()), to: &frame)
            try publisher.write(frame)
        }
        try acknowledgements.result(within: 30)
        return LatencyPercentiles(of: try received.result(within: 30))
    }

    /// `subscribers` connections follow one stream while one client publishes `events` to it:
    /// deliveries per second until the last subscriber has them all, and the publish rate meanwhile.
    private func fanOut(_ socketPath: String, payload: [UInt8], events: Int, subscribers: Int) throws -> (deliveries: Double, publish: Double) {
        let publisher = try BenchSocket(path: socketPath)
        _ = try publisher.request(.publish(.init(stream: "fanout", payload: payload)))
        let subscriptions = try (0..<subscribers).map { _ in
            try BenchSubscription(socket: try BenchSocket(path: socketPath), stream: "fanout", from: .newOnly)
        }
        let readers = BackgroundWork { try readAll(subscriptions, until: events) }
        let start = monotonicNanoseconds()
        try publisher.publishPipelined(events, payload: payload, to: "fanout", window: Self.window)
        let published = seconds(since: start)
        try readers.result(within: 120)
        return (Double(events * subscribers) / seconds(since: start), Double(events) / published)
    }
}

/// Reads every subscription on one thread, with poll(2), until each has `count` events.
private func readAll(_ subscriptions: [BenchSubscription], until count: Int) throws {
    var descriptors = subscriptions.map { pollfd(fd: $0.socket.descriptor, events: Int16(POLLIN), revents: 0) }
    while subscriptions.contains(where: { $0.received < count }) {
        guard poll(&descriptors, nfds_t(descriptors.count), 10_000) > 0 else { throw BenchFailure("fan-out subscribers stalled") }
        for (index, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
            let subscription = subscriptions[index]
            for frame in try subscription.socket.readFrames() { try subscription.take(frame.message) }
        }
    }
}
