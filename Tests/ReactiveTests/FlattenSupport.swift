import Synchronization
@testable import Reactive

/// A producer whose starts the test drives by hand: each start is recorded with its observer and
/// lifetime, so a test can send events into it and check that it was disposed.
final class ProducerProbe<Value: Sendable, Failure: Error>: Sendable {
    struct Start: Sendable {
        let observer: Observer<Value, Failure>
        let lifetime: Lifetime
    }

    private let starts = Mutex<[Start]>([])

    var producer: SignalProducer<Value, Failure> {
        SignalProducer { [self] observer, lifetime in
            starts.withLock { $0.append(Start(observer: observer, lifetime: lifetime)) }
        }
    }

    var startCount: Int { starts.withLock { $0.count } }

    /// The observer of the latest start.
    var observer: Observer<Value, Failure> { starts.withLock { $0.last!.observer } }

    /// Whether the latest start has ended (terminated or disposed); false if never started.
    var hasEnded: Bool { starts.withLock { $0.last?.lifetime.hasEnded ?? false } }

    /// Whether it was started and every start has ended.
    var allEnded: Bool { starts.withLock { !$0.isEmpty && $0.allSatisfy(\.lifetime.hasEnded) } }
}

typealias IntProducer = SignalProducer<Int, TestError>
typealias IntProbe = ProducerProbe<Int, TestError>
typealias OuterProbe = ProducerProbe<IntProducer, TestError>

extension SignalProducer {
    /// Starts the producer, recording into `observer` and calling `terminated` after its terminal event.
    @discardableResult
    func startRecording(into observer: Observer, then terminated: @escaping @Sendable () -> Void) -> any Disposable {
        start { event in
            observer.send(event)
            if event.isTerminating { terminated() }
        }
    }
}
