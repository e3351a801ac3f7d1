/// One workload: the same job written for both libraries, and how to turn a run into a rate.
struct Workload: Sendable {
    /// Runs the job for `events` events, measuring only its steady state with the meter; returns a
    /// checksum of everything delivered.
    typealias Job = @Sendable (_ events: Int, _ meter: Meter) -> Int

    /// The metric name printed for `Reactive`.
    let metric: String
    /// The metric name printed for OpenCombine; differs from `metric` when OpenCombine runs a stand-in.
    let openCombineMetric: String
    /// The unit of the rate.
    let unit: String
    let reactive: Job
    let openCombine: Job
    /// How many items one run of `events` events delivers.
    let deliveries: @Sendable (_ events: Int) -> Int
    /// How many deliveries one sent event makes (the fan-out); allocations are counted per sent event.
    var deliveriesPerEvent = 1
    /// What is measured, for the summary.
    let note: String

    static let fanOutObservers = 100
    static let replayCount = 1000

    /// The late subscribers one replay run attaches: enough to deliver about `events` values.
    static func replaySubscribers(forEvents events: Int) -> Int {
        max(1, events / replayCount)
    }

    static let all: [Workload] = [
        Workload(
            metric: "chain", openCombineMetric: "chain", unit: "events/s",
            reactive: ReactiveWorkloads.chain, openCombine: OpenCombineWorkloads.chain,
            deliveries: { $0 },
            note: "subject → map → filter → scan → observer"
        ),
        Workload(
            metric: "fanout", openCombineMetric: "fanout", unit: "deliveries/s",
            reactive: ReactiveWorkloads.fanOut, openCombine: OpenCombineWorkloads.fanOut,
            deliveries: { $0 * fanOutObservers },
            deliveriesPerEvent: fanOutObservers,
            note: "one subject, \(fanOutObservers) observers"
        ),
        Workload(
            metric: "replay", openCombineMetric: "replay_via_sequence", unit: "events/s",
            reactive: ReactiveWorkloads.replay, openCombine: OpenCombineWorkloads.replayViaSequence,
            deliveries: { replaySubscribers(forEvents: $0) * replayCount },
            note: "late subscriber receives \(replayCount) kept values; OpenCombine has no replay subject, "
                + "so its figure is Publishers.Sequence over an array of the \(replayCount) values (a stand-in "
                + "that does less work)"
        ),
    ]

    static var names: [String] { all.map(\.metric) }
}
