import Synchronization
@testable import Reactive

/// A one-shot flag that async tests wait on: `fire()` from anywhere, `wait()` in the test.
final class AsyncFlag: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream<Void>.makeStream()
    }

    func fire() { continuation.yield() }

    func wait() async {
        for await _ in stream { return }
    }
}

/// Starts `producer` and returns every event up to and including its terminal event.
func events<Value: Sendable, Failure: Error>(of producer: SignalProducer<Value, Failure>) async -> [Event<Value, Failure>] {
    let recorder = Recorder<Value, Failure>()
    let terminated = AsyncFlag()
    producer.start { event in
        recorder.observer.send(event)
        if event.isTerminating { terminated.fire() }
    }
    await terminated.wait()
    return recorder.events
}

/// A cold async sequence counting down from `start` to 1, so several tasks may iterate it at once.
struct Countdown: AsyncSequence, Sendable {
    let start: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        var current: Int
        mutating func next() async -> Int? {
            guard current > 0 else { return nil }
            defer { current -= 1 }
            return current
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(current: start) }
}
