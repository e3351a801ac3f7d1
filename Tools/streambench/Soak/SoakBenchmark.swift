import Foundation

/// The hostile-neighbour soak: two well-behaved publisher/subscriber pairs run alone for a quiet
/// phase (a third of the attack's length, 2 to 10 s), then beside every kind of `HostileClients` for `--seconds`; it reports the daemon's peak
/// memory and its CPU under attack, the pairs' publish rate in both phases, and any acknowledged
/// event a subscriber did not receive in order.
///
/// The bars (issue 14): peak RSS under 256 MiB, CPU under one core, nothing lost, and the publish
/// rate under attack within 2x of the quiet one; a line says whether each held.
struct SoakBenchmark {
    let arguments: Arguments
    init(_ arguments: Arguments) { self.arguments = arguments }

    func run() throws {
        let directory = arguments.directory + "/soak"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let daemon = try Daemon(executable: arguments.streamd, directory: directory, durability: arguments.durability)
        defer { daemon.stop() }
        let payload = [UInt8](repeating: UInt8(ascii: "x"), count: arguments.payload)
        let quietSeconds = min(10, max(2, Double(arguments.seconds) / 3))
        note("soak: 2 publisher/subscriber pairs, \(quietSeconds) s alone, then \(arguments.seconds) s beside hostile clients (\(arguments.idleConnections) idle connections tried)")

        let pairs = try (0..<2).map { try CheckedStream(stream: "soak-\($0)", socketPath: daemon.socketPath, payload: payload) }
        let quietCPUBefore = daemon.cpuSeconds, quietStart = monotonicNanoseconds()
        let quiet = rate(of: pairs, over: quietSeconds)
        let quietCPU = (daemon.cpuSeconds - quietCPUBefore) / seconds(since: quietStart)

        let cpuBefore = daemon.cpuSeconds, start = monotonicNanoseconds()
        let hostile = HostileClients(socketPath: daemon.socketPath, idleConnections: arguments.idleConnections)
        let underAttack = rate(of: pairs, over: Double(arguments.seconds))
        let cpu = (daemon.cpuSeconds - cpuBefore) / seconds(since: start)
        let memory = daemon.memory
        try hostile.stop()
        let lost = try pairs.map { try $0.finish(within: 60) }.reduce(0, +)
        let misordered = pairs.map { $0.misordered.value }.reduce(0, +)

        report("soak_quiet_publish", quiet, "events/s", "2 pairs, window \(ClientBenchmark.window), alone")
        report("soak_hostile_publish", underAttack, "events/s", "the same, beside the hostile clients")
        report("soak_daemon_quiet_cpu", quietCPU, "cores", "the daemon's CPU time serving the pairs alone, per second")
        report("soak_daemon_cpu", cpu, "cores", "the daemon's CPU time while under attack, per second")
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
            ("CPU under one core", cpu < 1),
            ("nothing lost or misordered", lost == 0 && misordered == 0),
            ("publish rate within 2x of the quiet run", underAttack * 2 >= quiet),
        ]
        for (bar, held) in bars { note("\(held ? "held" : "MISSED"): \(bar)") }
    }

    /// The pairs' acknowledged events per second over the next `duration` seconds.
    private func rate(of pairs: [CheckedStream], over duration: Double) -> Double {
        func total() -> Int { pairs.map { $0.acknowledged.value }.reduce(0, +) }
        let before = total(), start = monotonicNanoseconds()
        usleep(UInt32(duration * 1_000_000))
        return Double(total() - before) / seconds(since: start)
    }
}
