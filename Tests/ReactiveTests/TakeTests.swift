import Testing
@testable import Reactive

@Suite struct TakeOperatorTests {
    typealias Harness = BasicOperatorHarness

    // MARK: take(first:)

    @Test func takeFirstSendsTheFirstValuesThenCompletes() {
        let events = Harness.events(of: { $0.take(first: 2) }, after: [1, 2, 3, 4])
        #expect(events == [.value(1), .value(2), .completed])
    }

    @Test func takeFirstZeroCompletesAtOnce() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        signal.take(first: 0).observe(recorder.observer)
        #expect(recorder.events == [.completed])
        input.send(value: 1)
        #expect(recorder.events == [.completed])
    }

    @Test(arguments: Harness.terminalEvents)
    func takeFirstPassesATerminalEventThatComesEarly(terminal: Event<Int, TestError>) {
        let events = Harness.events(of: { $0.take(first: 3) }, after: [1], terminal)
        #expect(events == [.value(1), terminal])
    }

    @Test func takeFirstStopsObservingItsSourceOnceDone() {
        let (taken, input, released) = Harness.watchedSource { $0.take(first: 2) }
        let recorder = Recorder<Int, TestError>()
        taken.observe(recorder.observer)
        input.send(value: 1)
        #expect(released.value == 0)
        input.send(value: 2)
        #expect(released.value == 1)
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func takeFirstIgnoresValuesItsObserverSendsBackIntoTheSource() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        signal.take(first: 1).observe { event in
            recorder.observer.send(event)
            if case let .value(value) = event { input.send(value: value + 1) }
        }
        input.send(value: 1)
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test func takeFirstOnAProducerInterruptsTheStartOnceDone() {
        let (producer, sent, ended) = Harness.countingProducer(upTo: 100)
        let recorder = Recorder<Int, TestError>()
        producer.take(first: 3).start(recorder.observer)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
        #expect(sent.value == 3)
        #expect(ended.value == 1)
    }

    @Test func takeFirstZeroOnAProducerNeverRunsTheStartHandler() {
        let (producer, sent, _) = Harness.countingProducer()
        let recorder = Recorder<Int, TestError>()
        producer.take(first: 0).start(recorder.observer)
        #expect(recorder.events == [.completed])
        #expect(sent.value == 0)
    }

    // MARK: take(last:)

    @Test func takeLastSendsTheLastValuesInOrderOnCompletion() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        signal.take(last: 3).observe(recorder.observer)
        for value in 1...7 { input.send(value: value) }
        #expect(recorder.events.isEmpty)
        input.sendCompleted()
        #expect(recorder.events == [.value(5), .value(6), .value(7), .completed])
    }

    @Test func takeLastSendsFewerValuesWhenFewerCame() {
        let events = Harness.events(of: { $0.take(last: 3) }, after: [1, 2], .completed)
        #expect(events == [.value(1), .value(2), .completed])
    }

    @Test func takeLastZeroOnlyCompletes() {
        let events = Harness.events(of: { $0.take(last: 0) }, after: [1, 2], .completed)
        #expect(events == [.completed])
    }

    @Test(arguments: [Event<Int, TestError>.failed(TestError(code: 2)), .interrupted])
    func takeLastDropsItsValuesWhenTheSourceFailsOrIsInterrupted(terminal: Event<Int, TestError>) {
        let events = Harness.events(of: { $0.take(last: 2) }, after: [1, 2, 3], terminal)
        #expect(events == [terminal])
    }

    @Test func takeLastOnAProducerKeepsTheLastValuesOfEachStart() {
        let recorder = Recorder<Int, TestError>()
        Harness.countingProducer(upTo: 10).producer.take(last: 2).start(recorder.observer)
        #expect(recorder.events == [.value(9), .value(10), .completed])
    }

    // MARK: take(while:)

    @Test func takeWhileSendsValuesUntilThePredicateFailsThenCompletes() {
        let events = Harness.events(of: { $0.take(while: { $0 < 3 }) }, after: [1, 2, 3, 1])
        #expect(events == [.value(1), .value(2), .completed])
    }

    @Test(arguments: Harness.terminalEvents)
    func takeWhilePassesATerminalEventThatComesEarly(terminal: Event<Int, TestError>) {
        let events = Harness.events(of: { $0.take(while: { $0 < 3 }) }, after: [1], terminal)
        #expect(events == [.value(1), terminal])
    }

    @Test func takeWhileStopsObservingItsSourceOnceDone() {
        let calls = Counter()
        let (taken, input, released) = Harness.watchedSource { signal in
            signal.take(while: { value in
                calls.increment()
                return value < 2
            })
        }
        let recorder = Recorder<Int, TestError>()
        taken.observe(recorder.observer)
        input.send(value: 1)
        input.send(value: 2)
        #expect(released.value == 1)
        input.send(value: 0)
        #expect(calls.value == 2)
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test func takeWhileOnAProducerInterruptsTheStartOnceDone() {
        let (producer, sent, ended) = Harness.countingProducer(upTo: 100)
        let recorder = Recorder<Int, TestError>()
        producer.take(while: { $0 < 4 }).start(recorder.observer)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.terminal == .completed)
        #expect(sent.value == 4)
        #expect(ended.value == 1)
    }
}
