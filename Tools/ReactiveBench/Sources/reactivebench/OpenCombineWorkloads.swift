import OpenCombine

/// The same workloads on OpenCombine, built the way a Combine user would write them; see
/// `ReactiveWorkloads`.
///
/// Nonisolated on purpose: see main.swift.
enum OpenCombineWorkloads {
    /// subject → map → filter → scan → sink; one send per event.
    nonisolated static func chain(events: Int, meter: Meter) -> Int {
        let sink = Sink()
        let subject = OpenCombine.PassthroughSubject<Int, Never>()
        let cancellable = subject
            .map { $0 &* 2 }
            .filter { $0 % 3 != 0 }
            .scan(0) { $0 &+ $1 }
            .sink { sink.total &+= $0 }
        meter.start()
        for value in 0..<events {
            subject.send(value)
        }
        meter.stop()
        cancellable.cancel()
        return sink.total
    }

    /// One subject with `Workload.fanOutObservers` sinks; one send per event.
    nonisolated static func fanOut(events: Int, meter: Meter) -> Int {
        let sink = Sink()
        let subject = OpenCombine.PassthroughSubject<Int, Never>()
        let cancellables = (0..<Workload.fanOutObservers).map { _ in
            subject.sink { sink.total &+= $0 }
        }
        meter.start()
        for value in 0..<events {
            subject.send(value)
        }
        meter.stop()
        for cancellable in cancellables { cancellable.cancel() }
        return sink.total
    }

    /// OpenCombine has no replay subject. Its closest equivalent: the kept values, held in an array by
    /// the caller, published to each late subscriber by `Publishers.Sequence`. It does less than a replay
    /// subject (no live hand-over, no ring buffer, no gate), so it flatters OpenCombine.
    nonisolated static func replayViaSequence(events: Int, meter: Meter) -> Int {
        let sink = Sink()
        let kept = Array(0..<Workload.replayCount)
        let subscribers = Workload.replaySubscribers(forEvents: events)
        meter.start()
        for _ in 0..<subscribers {
            let cancellable = kept.publisher.sink { sink.total &+= $0 }
            cancellable.cancel()
        }
        meter.stop()
        return sink.total
    }
}
