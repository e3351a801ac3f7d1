/// The `ping` workload: `PING` round trips from one client, to the daemon and then to a
/// `BarePingServer` in its place, with the CPU each server spent per request. The daemon's `PING`
/// is its transport alone (the socket, SwiftNIO, the session's decoding and dispatch, no log); the
/// bare server's is the least a server on this machine can spend, so the two side by side say what
/// streamd's transport costs.
///
/// Thread-safety: runs on the benchmark's thread, with the bare server's loop on a thread of its own.
enum PingBenchmark {
    /// What one run measured.
    struct Figures {
        /// Microseconds per round trip with the daemon, and the daemon's CPU per `PING` (all threads).
        var roundTrip: Double, daemonMicroseconds: Double
        /// The same against the bare server (its one thread's CPU).
        var floorRoundTrip: Double, floorMicroseconds: Double
    }

    /// Times `roundTrips` pings through `client` to `daemon`, then as many to a bare server listening
    /// in `directory`.
    static func run(_ client: BenchSocket, daemon: Daemon, directory: String, roundTrips: Int) throws -> Figures {
        let daemonBefore = daemon.cpuSeconds
        let roundTrip = try timedPings(client, roundTrips: roundTrips)
        let daemonCPU = daemon.cpuSeconds - daemonBefore
        let bare = try BarePingServer(directory: directory)
        let floorRoundTrip: Double
        do {
            floorRoundTrip = try timedPings(try BenchSocket(path: bare.socketPath), roundTrips: roundTrips)
        } catch {
            _ = try? bare.stop()
            throw error
        }
        let work = try bare.stop()
        return Figures(
            roundTrip: roundTrip, daemonMicroseconds: daemonCPU * 1e6 / Double(roundTrips + 1),
            floorRoundTrip: floorRoundTrip, floorMicroseconds: work.cpuSeconds * 1e6 / Double(max(1, work.pings)))
    }

    /// Microseconds per `PING` answered in `roundTrips`, after one untimed.
    private static func timedPings(_ client: BenchSocket, roundTrips: Int) throws -> Double {
        _ = try client.request(.ping(nonce: 0))
        let start = monotonicNanoseconds()
        for nonce in 0..<UInt64(roundTrips) {
            guard case .pong = try client.request(.ping(nonce: nonce)) else { throw BenchFailure("a ping failed") }
        }
        return Double(monotonicNanoseconds() - start) / 1_000 / Double(roundTrips)
    }
}
