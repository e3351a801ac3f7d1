import Testing
@testable import Reactive

@Suite struct IgnoreValuesOperatorTests {
    typealias Harness = BasicOperatorHarness

    @Test(arguments: Harness.terminalEvents)
    func dropsEveryValueAndKeepsTheTerminalEvent(terminal: Event<Int, TestError>) {
        let events = Harness.events(of: { $0.ignoreValues() }, after: [1, 2, 3], terminal)
        #expect(events == [terminal])
    }

    @Test func sendsNothingWhileTheSourceIsRunning() {
        let events = Harness.events(of: { $0.ignoreValues() }, after: [1, 2, 3])
        #expect(events.isEmpty)
    }

    @Test func aProducerOnlyReportsHowItEnded() {
        let recorder = Recorder<Int, TestError>()
        SignalProducer<Int, TestError>([1, 2, 3]).ignoreValues().start(recorder.observer)
        #expect(recorder.events == [.completed])
    }
}
