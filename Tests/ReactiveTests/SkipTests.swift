import Testing
@testable import Reactive

@Suite struct SkipOperatorTests {
    typealias Harness = BasicOperatorHarness

    @Test func skipFirstDropsTheFirstValues() {
        let events = Harness.events(of: { $0.skip(first: 2) }, after: [1, 2, 3, 4])
        #expect(events == [.value(3), .value(4)])
    }

    @Test func skipFirstZeroDropsNothing() {
        let events = Harness.events(of: { $0.skip(first: 0) }, after: [1, 2], .completed)
        #expect(events == [.value(1), .value(2), .completed])
    }

    @Test(arguments: Harness.terminalEvents)
    func skipFirstPassesATerminalEventThatComesWhileSkipping(terminal: Event<Int, TestError>) {
        let events = Harness.events(of: { $0.skip(first: 5) }, after: [1, 2], terminal)
        #expect(events == [terminal])
    }

    @Test func skipWhileDropsValuesUntilThePredicateFailsThenSendsEverything() {
        let calls = Counter()
        let events = Harness.events(of: { signal in
            signal.skip(while: { value in
                calls.increment()
                return value < 3
            })
        }, after: [1, 2, 3, 1, 4])
        #expect(events == [.value(3), .value(1), .value(4)])
        #expect(calls.value == 3)
    }

    @Test(arguments: Harness.terminalEvents)
    func skipWhilePassesATerminalEventThatComesWhileSkipping(terminal: Event<Int, TestError>) {
        let events = Harness.events(of: { $0.skip(while: { $0 < 3 }) }, after: [1, 2], terminal)
        #expect(events == [terminal])
    }

    @Test func eachStartOfAProducerSkipsAnew() {
        let recorder = Recorder<Int, TestError>()
        let producer = Harness.countingProducer(upTo: 4).producer.skip(first: 2).skip(while: { $0 < 4 })
        producer.start(recorder.observer)
        producer.start(recorder.observer)
        #expect(recorder.events == [.value(4), .completed, .value(4), .completed])
    }
}
