import Testing
@testable import Reactive

@Suite struct WithLatestOperatorTests {
    typealias Harness = BasicOperatorHarness

    @Test func pairsEachValueWithTheOtherSignalsLatestValue() {
        let sources = Harness.watchedSources(other: String.self) { $0.withLatest(from: $1).map { "\($0)\($1)" } }
        sources.input.send(value: 1)
        sources.otherInput.send(value: "a")
        sources.input.send(value: 2)
        sources.input.send(value: 3)
        sources.otherInput.send(value: "b")
        sources.otherInput.send(value: "c")
        sources.input.send(value: 4)
        #expect(sources.recorder.values == ["2a", "3a", "4c"])
    }

    @Test(arguments: [Event<String, Never>.completed, .interrupted])
    func ignoresTheOtherSignalsEndAndKeepsItsLastValue(end: Event<String, Never>) {
        let sources = Harness.watchedSources(other: String.self) { $0.withLatest(from: $1).map { "\($0)\($1)" } }
        sources.otherInput.send(value: "a")
        sources.otherInput.send(end)
        sources.input.send(value: 1)
        #expect(sources.recorder.events == [.value("1a")])
    }

    @Test(arguments: Harness.terminalEvents)
    func endsWithTheSourceAndReleasesTheOtherSignal(terminal: Event<Int, TestError>) {
        let sources = Harness.watchedSources(other: String.self) { $0.withLatest(from: $1).map { "\($0)\($1)" } }
        sources.otherInput.send(value: "a")
        sources.input.send(value: 1)
        sources.input.send(terminal)
        #expect(sources.recorder.events == [.value("1a"), terminal.terminal(as: String.self)!])
        #expect(sources.otherReleased.value == 1)
    }

    @Test func aSignalStartsTheOtherProducerAndInterruptsItWhenItEnds() {
        let (source, input) = Signal<Int, TestError>.pipe()
        let otherEnded = Counter()
        let other = SignalProducer<String, Never> { observer, lifetime in
            lifetime.observeEnded { otherEnded.increment() }
            observer.send(value: "a")
        }
        let recorder = Recorder<String, TestError>()
        source.withLatest(from: other).map { "\($0)\($1)" }.observe(recorder.observer)
        input.send(value: 1)
        #expect(otherEnded.value == 0)
        input.sendCompleted()
        #expect(recorder.events == [.value("1a"), .completed])
        #expect(otherEnded.value == 1)
    }

    @Test func aProducerStartsTheOtherProducerFirst() {
        let recorder = Recorder<String, TestError>()
        Harness.countingProducer(upTo: 2).producer.withLatest(from: SignalProducer(["a", "b"])).map { "\($0)\($1)" }
            .start(recorder.observer)
        #expect(recorder.events == [.value("1b"), .value("2b"), .completed])
    }

    @Test func aProducerPairsWithASignalsLatestValue() {
        let (other, otherInput) = Signal<String, Never>.pipe()
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<String, TestError>()
        SignalProducer(source).withLatest(from: other).map { "\($0)\($1)" }.start(recorder.observer)
        sourceInput.send(value: 1)
        otherInput.send(value: "z")
        sourceInput.send(value: 2)
        #expect(recorder.values == ["2z"])
    }
}
