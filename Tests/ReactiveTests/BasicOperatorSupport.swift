@testable import Reactive

/// Drives the single-source operators of the basic operator suites through a pipe.
enum BasicOperatorHarness {
    /// One terminal event of each kind, for tests that check every kind passes through.
    static let terminalEvents: [Event<Int, TestError>] = [.failed(TestError(code: 7)), .completed, .interrupted]

    /// What `transform` sends when its source sends `values` and then `terminal`.
    static func events<U>(
        of transform: (Signal<Int, TestError>) -> Signal<U, TestError>,
        after values: [Int],
        _ terminal: Event<Int, TestError>? = nil
    ) -> [Event<U, TestError>] {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<U, TestError>()
        transform(signal).observe(recorder.observer)
        for value in values { input.send(value: value) }
        if let terminal { input.send(terminal) }
        return recorder.events
    }

    /// `transform` applied to a source nobody else holds or observes, so the source is torn down (and
    /// `released` counts it) as soon as the operator stops observing it.
    static func watchedSource<U>(
        _ transform: (Signal<Int, TestError>) -> Signal<U, TestError>
    ) -> (result: Signal<U, TestError>, input: Observer<Int, TestError>, released: Counter) {
        let released = Counter()
        let (signal, input) = Signal<Int, TestError>.pipe(disposable: AnyDisposable { released.increment() })
        return (transform(signal), input, released)
    }

    /// A producer that sends 1, 2, 3, … up to `limit` while its start lives, then completes; `sent`
    /// counts the values it sent and `ended` the starts whose lifetime ended.
    static func countingProducer(
        upTo limit: Int = 100
    ) -> (producer: SignalProducer<Int, TestError>, sent: Counter, ended: Counter) {
        let sent = Counter()
        let ended = Counter()
        let producer = SignalProducer<Int, TestError> { observer, lifetime in
            lifetime.observeEnded { ended.increment() }
            for value in 1...limit {
                guard !lifetime.hasEnded else { return }
                sent.increment()
                observer.send(value: value)
            }
            observer.sendCompleted()
        }
        return (producer, sent, ended)
    }
}

extension BasicOperatorHarness {
    /// Two sources nobody else holds, combined by `transform`: each is torn down (and its counter
    /// counts it) as soon as the operator stops observing it.
    static func watchedSources<T, U>(
        other _: T.Type = T.self,
        _ transform: (Signal<Int, TestError>, Signal<T, Never>) -> Signal<U, TestError>
    ) -> WatchedSources<T, U> {
        let released = Counter()
        let otherReleased = Counter()
        let (signal, input) = Signal<Int, TestError>.pipe(disposable: AnyDisposable { released.increment() })
        let (other, otherInput) = Signal<T, Never>.pipe(disposable: AnyDisposable { otherReleased.increment() })
        let result = transform(signal, other)
        let recorder = Recorder<U, TestError>()
        result.observe(recorder.observer)
        return WatchedSources(
            recorder: recorder, input: input, otherInput: otherInput,
            released: released, otherReleased: otherReleased
        )
    }

    /// What `watchedSources` returns: the recorder observing the result, the inputs of both sources and
    /// their release counters.
    struct WatchedSources<T: Sendable, U: Sendable> {
        let recorder: Recorder<U, TestError>
        let input: Observer<Int, TestError>
        let otherInput: Observer<T, Never>
        let released: Counter
        let otherReleased: Counter
    }
}
