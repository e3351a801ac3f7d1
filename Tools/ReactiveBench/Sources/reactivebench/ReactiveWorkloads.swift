import Reactive

/// The workloads run on this project's `Reactive` library. Each builds its streams first, then
/// brackets only the steady-state loop with the meter, and returns the sink's total as a checksum.
///
/// Nonisolated on purpose: see main.swift.
enum ReactiveWorkloads {
    /// subject → map → filter → scan → observer; one send per event.
    nonisolated static func chain(events: Int, meter: Meter) -> Int {
        let sink = Sink()
        let subject = Reactive.PassthroughSubject<Int, Never>()
        let observation = subject.signal
            .map { $0 &* 2 }
            .filter { $0 % 3 != 0 }
            .scan(0) { $0 &+ $1 }
            .observeValues { sink.total &+= $0 }
        meter.start()
        for value in 0..<events {
            subject.send(value: value)
        }
        meter.stop()
        observation.dispose()
        return sink.total
    }

    /// One subject observed by `Workload.fanOutObservers` observers; one send per event.
    nonisolated static func fanOut(events: Int, meter: Meter) -> Int {
        let sink = Sink()
        let subject = Reactive.PassthroughSubject<Int, Never>()
        let observations = (0..<Workload.fanOutObservers).map { _ in
            subject.signal.observeValues { sink.total &+= $0 }
        }
        meter.start()
        for value in 0..<events {
            subject.send(value: value)
        }
        meter.stop()
        for observation in observations { observation.dispose() }
        return sink.total
    }

    /// A replay subject holding `Workload.replayCount` values, attached to by one late observer after
    /// another; each receives the kept values, then is disposed.
    nonisolated static func replay(events: Int, meter: Meter) -> Int {
        let sink = Sink()
        let subject = ReplaySubject<Int, Never>(capacity: .last(Workload.replayCount))
        for value in 0..<Workload.replayCount {
            subject.send(value: value)
        }
        let subscribers = Workload.replaySubscribers(forEvents: events)
        meter.start()
        for _ in 0..<subscribers {
            let observation = subject.signal.observeValues { sink.total &+= $0 }
            observation.dispose()
        }
        meter.stop()
        return sink.total
    }
}
