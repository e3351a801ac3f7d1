import CoreMetrics

/// The checkpointer's metric handles: one duration histogram per kind of pass.
///
/// Made with the checkpointer, from whatever `MetricsSystem` holds then; with swift-metrics' no-op
/// backend `measure` runs its body without reading the clock.
///
/// Thread-safety: Sendable; the handles may be used from any thread.
struct CheckpointMetrics: Sendable {
    /// The kinds of pass, as the `pass` label shows them.
    enum Pass: String, CaseIterable, Sendable {
        /// A pass beside commits, on the checkpointer's thread.
        case background
        /// A cycle's second pass, with commits held.
        case held
        /// A pass inside a commit that found the WAL at four times its threshold.
        case inline
    }

    private let isEnabled: Bool
    private let timers: [Pass: CoreMetrics.Timer]

    /// Handles from the current `MetricsSystem`.
    init() {
        isEnabled = !(MetricsSystem.factory is NOOPMetricsHandler)
        timers = Dictionary(uniqueKeysWithValues: Pass.allCases.map {
            ($0, CoreMetrics.Timer(label: EventLogMetricNames.checkpointDuration, dimensions: [("pass", $0.rawValue)]))
        })
    }

    /// Runs `body`, recording how long it took as a `pass`.
    func measure<T>(_ pass: Pass, _ body: () throws -> T) rethrows -> T {
        guard isEnabled else { return try body() }
        let started = ContinuousClock.now
        defer {
            let elapsed = (ContinuousClock.now - started).components
            timers[pass]?.recordNanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
        }
        return try body()
    }
}
