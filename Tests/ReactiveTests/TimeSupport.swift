import Synchronization
@testable import Reactive

/// A time `seconds` after a test scheduler's origin.
func at(_ seconds: Double) -> SchedulerTime {
    SchedulerTime(nanoseconds: UInt64(seconds * 1_000_000_000))
}

/// Collects what a stream sends together with the virtual time it arrived at.
final class TimedRecorder<Value: Sendable, Failure: Error>: Sendable {
    private let scheduler: TestScheduler
    private let state = Mutex<[(time: SchedulerTime, event: Event<Value, Failure>)]>([])

    init(_ scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    var events: [Event<Value, Failure>] { state.withLock { $0.map(\.event) } }
    var values: [Value] { events.compactMap(\.value) }
    var times: [SchedulerTime] { state.withLock { $0.map(\.time) } }

    var observer: Observer<Value, Failure> {
        Observer { [self] event in
            let now = scheduler.now
            state.withLock { $0.append((now, event)) }
        }
    }
}
