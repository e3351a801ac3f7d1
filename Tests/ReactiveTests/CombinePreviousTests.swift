import Testing
@testable import Reactive

@Suite struct CombinePreviousOperatorTests {
    typealias Harness = BasicOperatorHarness

    @Test func pairsEachValueWithTheOneBeforeStartingWithTheInitialValue() {
        let events = Harness.events(of: { $0.combinePrevious(0).map { [$0, $1] } }, after: [1, 2, 3])
        #expect(events == [.value([0, 1]), .value([1, 2]), .value([2, 3])])
    }

    @Test func withoutAnInitialValueTheFirstValueIsOnlyRemembered() {
        let events = Harness.events(of: { $0.combinePrevious().map { [$0, $1] } }, after: [1, 2, 3])
        #expect(events == [.value([1, 2]), .value([2, 3])])
    }

    @Test func anOptionalNilInitialValueIsPairedLikeAnyOther() {
        let (signal, input) = Signal<Int?, Never>.pipe()
        let recorder = Recorder<String, Never>()
        signal.combinePrevious(nil).map { "\($0.map(String.init) ?? "nil")-\($1.map(String.init) ?? "nil")" }
            .observe(recorder.observer)
        input.send(value: 1)
        input.send(value: nil)
        #expect(recorder.values == ["nil-1", "1-nil"])
    }

    @Test(arguments: Harness.terminalEvents)
    func passesEveryTerminalEventThrough(terminal: Event<Int, TestError>) {
        let expected = terminal.terminal(as: [Int].self)!
        #expect(Harness.events(of: { $0.combinePrevious(9).map { [$0, $1] } }, after: [1], terminal)
            == [.value([9, 1]), expected])
        #expect(Harness.events(of: { $0.combinePrevious().map { [$0, $1] } }, after: [1], terminal) == [expected])
    }

    @Test func eachStartOfAProducerBeginsAnew() {
        let recorder = Recorder<[Int], TestError>()
        let producer = Harness.countingProducer(upTo: 2).producer.combinePrevious(0).map { [$0, $1] }
        producer.start(recorder.observer)
        producer.start(recorder.observer)
        #expect(recorder.values == [[0, 1], [1, 2], [0, 1], [1, 2]])

        let pairs = Recorder<[Int], TestError>()
        Harness.countingProducer(upTo: 3).producer.combinePrevious().map { [$0, $1] }.start(pairs.observer)
        #expect(pairs.events == [.value([1, 2]), .value([2, 3]), .completed])
    }
}
