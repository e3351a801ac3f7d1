import MallocCounter

/// Measures the steady-state part of one run, bracketed by `start()` and `stop()`: either its wall-clock
/// time or the number of allocation calls made inside it.
///
/// Not thread-safe; one run uses one meter on one thread.
final class Meter {
    enum Mode {
        case time
        case allocations
    }

    let mode: Mode
    private var startedAt: ContinuousClock.Instant?
    /// Seconds between `start()` and `stop()`, in `.time` mode.
    private(set) var seconds = 0.0
    /// Allocation calls between `start()` and `stop()`, in `.allocations` mode.
    private(set) var allocations: UInt64 = 0

    init(_ mode: Mode) {
        self.mode = mode
    }

    func start() {
        switch mode {
        case .time: startedAt = ContinuousClock.now
        case .allocations: malloc_counter_start()
        }
    }

    func stop() {
        switch mode {
        case .time:
            guard let startedAt else { return }
            let elapsed = ContinuousClock.now - startedAt
            let parts = elapsed.components
            seconds = Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
        case .allocations:
            allocations = malloc_counter_stop()
        }
    }
}

/// Where the workloads' observers write, so the optimizer cannot delete the work; the total is the
/// checksum that proves both libraries delivered the same values.
///
/// `@unchecked Sendable` is sound because each sink is written only from inside the serialized delivery
/// of the one stream a run observes, on the thread running the benchmark, and read after the run on that
/// same thread. Exclusivity checks are off so that the harness adds no cost to either library's events.
final class Sink: @unchecked Sendable {
    @exclusivity(unchecked)
    var total = 0

    init() {}
}

/// Whether allocations made by the Swift runtime (not only by this executable) reach the counter: the
/// executable's malloc must have won the dynamic symbol lookup for the counts to mean anything.
nonisolated func allocationCounterWorks() -> Bool {
    final class Probe {
        var payload = 0
    }
    malloc_counter_start()
    probeEscape = Probe()
    let calls = malloc_counter_stop()
    probeEscape = nil
    return calls > 0
}

/// Holds the probe's object so that its allocation cannot be promoted to the stack.
nonisolated(unsafe) private var probeEscape: AnyObject?
