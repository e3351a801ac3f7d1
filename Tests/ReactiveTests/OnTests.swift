import Synchronization
import Testing
@testable import Reactive

/// Records the order in which side effects run, from any thread.
private final class Log: Sendable {
    private let entries = Mutex<[String]>([])
    var lines: [String] { entries.withLock { $0 } }
    func append(_ line: String) { entries.withLock { $0.append(line) } }
}

@Suite struct OnOperatorTests {
    typealias Harness = BasicOperatorHarness

    /// `signal.on(...)` with every handler writing to `log`.
    private static func logging(_ signal: Signal<Int, TestError>, to log: Log) -> Signal<Int, TestError> {
        signal.on(
            event: { log.append("event \($0)") },
            value: { log.append("value \($0)") },
            failed: { log.append("failed \($0.code)") },
            completed: { log.append("completed") },
            interrupted: { log.append("interrupted") },
            terminated: { log.append("terminated") },
            disposed: { log.append("disposed") }
        )
    }

    @Test func runsTheValueHandlersBeforePassingTheValueOn() {
        let log = Log()
        let (signal, input) = Signal<Int, TestError>.pipe()
        Self.logging(signal, to: log).observeValues { log.append("observer \($0)") }
        input.send(value: 1)
        #expect(log.lines == ["event value(1)", "value 1", "observer 1"])
    }

    @Test(arguments: [
        (Event<Int, TestError>.failed(TestError(code: 2)), "failed 2"),
        (.completed, "completed"),
        (.interrupted, "interrupted"),
    ])
    func runsTheHandlersOfATerminalEventInOrderThenDisposed(terminal: Event<Int, TestError>, handler: String) {
        let log = Log()
        let (signal, input) = Signal<Int, TestError>.pipe()
        Self.logging(signal, to: log).observe { event in log.append("observer \(event)") }
        input.send(terminal)
        #expect(log.lines == ["event \(terminal)", handler, "terminated", "observer \(terminal)", "disposed"])
    }

    @Test func disposedRunsWhenTheResultIsReleasedWithNoObservers() {
        let disposed = Counter()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let observation = signal.on(disposed: { disposed.increment() }).observeValues { _ in }
        #expect(disposed.value == 0)
        observation.dispose()
        #expect(disposed.value == 1)
        withExtendedLifetime(input) {}
    }

    @Test func aProducerRunsStartingBeforeItsWorkAndStartedAfter() {
        let log = Log()
        let producer = SignalProducer<Int, TestError> { observer, _ in
            log.append("work")
            observer.send(value: 1)
            observer.sendCompleted()
        }
        .on(
            starting: { log.append("starting") },
            started: { log.append("started") },
            value: { log.append("value \($0)") },
            terminated: { log.append("terminated") },
            disposed: { log.append("disposed") }
        )
        producer.start()
        #expect(log.lines == ["starting", "work", "value 1", "terminated", "disposed", "started"])
        producer.start()
        #expect(log.lines.count == 12)
    }

    @Test func aProducerRunsInterruptedThenDisposedWhenAStartIsDisposed() {
        let log = Log()
        let disposable = SignalProducer<Int, TestError>.never
            .on(started: { log.append("started") }, interrupted: { log.append("interrupted") },
                disposed: { log.append("disposed") })
            .start()
        #expect(log.lines == ["started"])
        disposable.dispose()
        #expect(log.lines == ["started", "interrupted", "disposed"])
    }

    @Test func disposingAStartAlwaysRunsInterruptedEvenBehindOtherOperators() {
        // The order in which a start's lifetime disposes its parts is not fixed, so repeat to catch
        // an order that would tear the handlers down without an interruption.
        let interruptions = Counter()
        let producer = SignalProducer<Int, TestError>.never.on(interrupted: { interruptions.increment() })
        for _ in 0..<50 { producer.start().dispose() }
        #expect(interruptions.value == 50)
        for _ in 0..<50 { producer.map { $0 }.filter { _ in true }.start().dispose() }
        #expect(interruptions.value == 100)
    }

    @Test func aProducerWithoutStartHooksStillRunsTheEventHandlers() {
        let values = Counter()
        let recorder = Recorder<Int, TestError>()
        Harness.countingProducer(upTo: 3).producer.on(value: { _ in values.increment() }).start(recorder.observer)
        #expect(values.value == 3)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
    }
}
