import Testing
@testable import Reactive

@Suite struct SkipRepeatsOperatorTests {
    typealias Harness = BasicOperatorHarness

    @Test func dropsEachValueEqualToTheOneBeforeIt() {
        let events = Harness.events(of: { $0.skipRepeats() }, after: [1, 1, 2, 2, 2, 1, 3, 3])
        #expect(events == [.value(1), .value(2), .value(1), .value(3)])
    }

    @Test func usesTheGivenEquivalence() {
        let events = Harness.events(of: { $0.skipRepeats { $0 / 10 == $1 / 10 } }, after: [1, 5, 12, 19, 3])
        #expect(events == [.value(1), .value(12), .value(3)])
    }

    @Test func comparesWithTheValueJustBeforeEvenWhenThatOneWasSkipped() {
        // Each step is within one of the previous value, so only the first value is sent.
        let events = Harness.events(of: { $0.skipRepeats { abs($0 - $1) <= 1 } }, after: [1, 2, 3, 4])
        #expect(events == [.value(1)])
    }

    @Test(arguments: Harness.terminalEvents)
    func passesEveryTerminalEventThrough(terminal: Event<Int, TestError>) {
        let events = Harness.events(of: { $0.skipRepeats() }, after: [4, 4], terminal)
        #expect(events == [.value(4), terminal])
    }

    @Test func eachStartOfAProducerBeginsWithoutAPreviousValue() {
        let recorder = Recorder<Int, Never>()
        let producer = SignalProducer<Int, Never>([7, 7, 8]).skipRepeats()
        producer.start(recorder.observer)
        producer.start(recorder.observer)
        #expect(recorder.values == [7, 8, 7, 8])
    }

    @Test func aProducerUsesTheGivenEquivalence() {
        let recorder = Recorder<String, Never>()
        SignalProducer<String, Never>(["a", "A", "b"]).skipRepeats { $0.lowercased() == $1.lowercased() }
            .start(recorder.observer)
        #expect(recorder.events == [.value("a"), .value("b"), .completed])
    }
}
