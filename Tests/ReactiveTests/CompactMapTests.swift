import Testing
@testable import Reactive

@Suite struct CompactMapOperatorTests {
    typealias Harness = BasicOperatorHarness

    @Test func sendsTheTransformedValuesAndLeavesOutTheNils() {
        let events = Harness.events(of: { $0.compactMap { $0.isMultiple(of: 2) ? "\($0)" : nil } }, after: [1, 2, 3, 4])
        #expect(events == [.value("2"), .value("4")])
    }

    @Test(arguments: Harness.terminalEvents)
    func passesEveryTerminalEventThrough(terminal: Event<Int, TestError>) {
        let events = Harness.events(of: { $0.compactMap { $0 > 1 ? $0 * 10 : nil } }, after: [1, 2], terminal)
        #expect(events == [.value(20), terminal])
    }

    @Test func aProducerAppliesItToEveryStart() {
        let recorder = Recorder<Int, Never>()
        let producer = SignalProducer<String, Never>(["1", "x", "3"]).compactMap { Int($0) }
        producer.start(recorder.observer)
        producer.start(recorder.observer)
        #expect(recorder.events == [.value(1), .value(3), .completed, .value(1), .value(3), .completed])
    }
}
