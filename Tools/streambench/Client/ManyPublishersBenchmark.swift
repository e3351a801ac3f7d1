import Foundation
import StreamProtocol

/// The `many` workload (issue "Performance on equal terms"): what `../shared/peers/redis_many_bench.c`
/// gives Redis, 16 connections each on a thread of its own, each publishing one event at a time and
/// waiting for its acknowledgement before the next. One client at a time (`rtt`) leaves the daemon idle
/// between requests; this shows how many publishers share it, with the counts of Redis's side so the
/// two rates can be set side by side.
///
/// With 16 publishers every core is busy, so the rate is the machine's cores divided by the CPU one
/// acknowledged publish costs the daemon and its client together; both are reported beside the rate.
///
/// Thread-safety: started from the benchmark's thread; each connection is opened, used and closed on
/// the thread of its publisher only.
enum ManyPublishersBenchmark {
    /// The connections, as `run-peers.sh` passes to `redis_many_bench`.
    static let clients = 16

    /// The events each connection publishes: Redis's `per_client`, a quarter of an even share of
    /// `events` (each is a whole round trip), and at least 1 000 so that small runs still time something.
    static func eventsPerClient(_ events: Int) -> Int { max(1_000, events / clients / 4) }

    /// What one run measured.
    struct Figures {
        /// Acknowledged events per second, all connections together.
        var rate: Double
        /// The daemon's CPU time (all its threads) per acknowledged event, in microseconds.
        var daemonMicroseconds: Double
        /// The publishers' CPU time (this process, which runs nothing else meanwhile) per acknowledged
        /// event, in microseconds.
        var clientMicroseconds: Double
    }

    /// The rate of acknowledged events, all connections together, and the CPU each cost. The clock
    /// runs, as Redis's does, from before the threads start to after the last one ends, so it includes
    /// each connection's handshake.
    ///
    /// - Parameters:
    ///   - daemon: the daemon to publish to.
    ///   - events: the run's `--events`, from which each connection's count follows.
    ///   - payload: each event's payload (`--payload` bytes).
    /// - Throws: `BenchFailure` when a connection fails, a publish is answered with anything but
    ///   `PUBLISHED`, or the publishers are not all done within 10 minutes.
    static func run(_ daemon: Daemon, events: Int, payload: [UInt8]) throws -> Figures {
        let socketPath = daemon.socketPath
        let perClient = eventsPerClient(events)
        let message = ClientMessage.publish(.init(stream: "many", payload: payload))
        let daemonBefore = daemon.cpuSeconds, clientBefore = cpuSecondsOfProcess(getpid())
        let start = monotonicNanoseconds()
        let publishers = (0..<clients).map { _ in
            BackgroundWork {
                let client = try BenchSocket(path: socketPath)
                for _ in 0..<perClient {
                    let reply = try client.request(message)
                    guard case .published = reply else { throw BenchFailure("a publish to many was answered with \(reply)") }
                }
            }
        }
        for publisher in publishers { try publisher.result(within: max(0, 600 - seconds(since: start))) }
        let acknowledged = Double(perClient * clients)
        return Figures(
            rate: acknowledged / seconds(since: start),
            daemonMicroseconds: (daemon.cpuSeconds - daemonBefore) * 1e6 / acknowledged,
            clientMicroseconds: (cpuSecondsOfProcess(getpid()) - clientBefore) * 1e6 / acknowledged)
    }

}
