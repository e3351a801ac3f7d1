import Foundation

/// The hostile-neighbour soak: two well-behaved publisher/subscriber pairs beside every kind of
/// `HostileClients`. Each phase of the pairs runs alone first (a third of the attack's length, 2 to
/// 10 s) and then under attack (half of `--seconds` each):
///
/// - **flat out**: the pairs publish as fast as they can, which shows how much of their rate the
///   attack takes (bar: within 2x of the quiet run). Their own work then fills most of the machine,
///   so the daemon's CPU says little about the attack here.
/// - **paced**: the pairs publish `--pace` events a second together (100 000 by default), which
///   shows what the attack costs the daemon in CPU (bar: under one core in all).
///
/// It also reports the daemon's peak memory (bar: under 256 MiB) and any acknowledged event a
/// subscriber did not receive in order (bar: none); a line says whether each bar held.
struct SoakBenchmark {
    let arguments: Arguments
    init(_ arguments: Arguments) { self.arguments = arguments }

    /// What one phase measured: the pairs' publish rate and the daemon's CPU, alone and under attack.
    private struct Phase {
        var quietRate = 0.0, quietCPU = 0.0, hostileRate = 0.0, hostileCPU = 0.0
    }

    func run() throws {
        let directory = arguments.directory + "/soak"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let daemon = try Daemon(executable: arguments.streamd, directory: directory, durability: arguments.durability)
        defer { daemon.stop() }
        let payload = [UInt8](repeating: UInt8(ascii: "x"), count: arguments.payload)
        let quietSeconds = min(10, max(2, Double(arguments.seconds) / 3)), attackSeconds = Double(arguments.seconds) / 2
        note("soak: 2 publisher/subscriber pairs, flat out then at \(arguments.pace) events/s, each \(quietSeconds) s alone, "
            + "then \(attackSeconds) s each beside hostile clients (\(arguments.idleConnections) idle connections tried)")

        let pairs = try (0..<2).map { try CheckedStream(stream: "soak-\($0)", socketPath: daemon.socketPath, payload: payload) }
        func pace(_ total: Int) { for pair in pairs { pair.pace.set(total / pairs.count) } }
        var flatOut = Phase(), paced = Phase()
        (flatOut.quietRate, flatOut.quietCPU) = measure(pairs, daemon, over: quietSeconds)
        pace(arguments.pace)
        (paced.quietRate, paced.quietCPU) = measure(pairs, daemon, over: quietSeconds)
        pace(0)
        let hostile = HostileClients(socketPath: daemon.socketPath, idleConnections: arguments.idleConnections)
        (flatOut.hostileRate, flatOut.hostileCPU) = measure(pairs, daemon, over: attackSeconds)
        pace(arguments.pace)
        (paced.hostileRate, paced.hostileCPU) = measure(pairs, daemon, over: attackSeconds)
        let memory = daemon.memory
        try hostile.stop()
        let lost = try pairs.map { try $0.finish(within: 60) }.reduce(0, +)
        let misordered = pairs.map { $0.misordered.value }.reduce(0, +)

        let window = "2 pairs, window \(ClientBenchmark.window)"
        report("soak_quiet_publish", flatOut.quietRate, "events/s", "\(window), flat out, alone")
        report("soak_hostile_publish", flatOut.hostileRate, "events/s", "\(window), flat out, beside the hostile clients")
        report("soak_daemon_quiet_cpu", flatOut.quietCPU, "cores", "the daemon's CPU time per second, pairs flat out, alone")
        report("soak_daemon_hostile_cpu", flatOut.hostileCPU, "cores", "the daemon's CPU time per second, pairs flat out, under attack")
        report("soak_paced_quiet_publish", paced.quietRate, "events/s", "\(window), paced to \(arguments.pace)/s, alone")
        report("soak_paced_hostile_publish", paced.hostileRate, "events/s", "\(window), paced to \(arguments.pace)/s, beside the hostile clients")
        report("soak_daemon_paced_quiet_cpu", paced.quietCPU, "cores", "the daemon's CPU time per second, pairs paced, alone")
        report("soak_daemon_paced_hostile_cpu", paced.hostileCPU, "cores", "the daemon's CPU time per second, pairs paced, under attack")
        report("soak_daemon_rss", memory.resident, "MiB", "resident at the end of the attack")
        report("soak_daemon_peak_rss", memory.peak, "MiB", "peak resident over the whole soak")
        report("soak_lost_events", Double(lost), "events", "acknowledged but never received")
        report("soak_misordered_events", Double(misordered), "events", "received out of order or twice")
        for tally in hostile.tallies {
            report("soak_\(tally.name)", Double(tally.attempts.value), "attempts",
                   "\(tally.refused.value) closed or refused by the daemon")
        }
        let bars = [
            ("peak RSS under 256 MiB", memory.peak < 256),
            ("CPU under one core (pairs paced)", paced.hostileCPU < 1),
            ("nothing lost or misordered", lost == 0 && misordered == 0),
            ("publish rate within 2x of the quiet run (flat out)", flatOut.hostileRate * 2 >= flatOut.quietRate),
            ("paced rate kept under attack (within 5%)", paced.hostileRate >= paced.quietRate * 0.95),
        ]
        for (bar, held) in bars { note("\(held ? "held" : "MISSED"): \(bar)") }
    }

    /// The pairs' acknowledged events per second and the daemon's CPU cores over the next `duration` seconds.
    private func measure(_ pairs: [CheckedStream], _ daemon: Daemon, over duration: Double) -> (Double, Double) {
        let cpuBefore = daemon.cpuSeconds, start = monotonicNanoseconds()
        let published = rate(of: pairs, over: duration)
        return (published, (daemon.cpuSeconds - cpuBefore) / seconds(since: start))
    }

    /// The pairs' acknowledged events per second over the next `duration` seconds.
    private func rate(of pairs: [CheckedStream], over duration: Double) -> Double {
        func total() -> Int { pairs.map { $0.acknowledged.value }.reduce(0, +) }
        let before = total(), start = monotonicNanoseconds()
        usleep(UInt32(duration * 1_000_000))
        return Double(total() - before) / seconds(since: start)
    }
}
