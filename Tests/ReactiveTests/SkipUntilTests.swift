import Testing
@testable import Reactive

@Suite struct SkipUntilOperatorTests {
    typealias Harness = BasicOperatorHarness

    @Test func dropsTheValuesBeforeTheTriggerFiresAndSendsTheRest() {
        let sources = Harness.watchedSources { $0.skip(until: $1) }
        sources.input.send(value: 1)
        sources.otherInput.send(value: ())
        sources.input.send(value: 2)
        sources.input.send(value: 3)
        #expect(sources.recorder.events == [.value(2), .value(3)])
    }

    @Test func aCompletingTriggerAlsoOpensTheResult() {
        let sources = Harness.watchedSources { $0.skip(until: $1) }
        sources.input.send(value: 1)
        sources.otherInput.sendCompleted()
        sources.input.send(value: 2)
        #expect(sources.recorder.events == [.value(2)])
    }

    @Test func anInterruptedTriggerNeverOpensTheResult() {
        let sources = Harness.watchedSources { $0.skip(until: $1) }
        sources.otherInput.sendInterrupted()
        sources.input.send(value: 1)
        sources.input.sendCompleted()
        #expect(sources.recorder.events == [.completed])
    }

    @Test func stopsObservingTheTriggerOnceItFired() {
        let sources = Harness.watchedSources { $0.skip(until: $1) }
        sources.otherInput.send(value: ())
        #expect(sources.otherReleased.value == 1)
        #expect(sources.released.value == 0)
        sources.input.send(value: 1)
        #expect(sources.recorder.events == [.value(1)])
    }

    @Test(arguments: Harness.terminalEvents)
    func passesTheSourcesTerminalEventEvenBeforeTheTriggerFires(terminal: Event<Int, TestError>) {
        let sources = Harness.watchedSources { $0.skip(until: $1) }
        sources.input.send(value: 1)
        sources.input.send(terminal)
        #expect(sources.recorder.events == [terminal])
        #expect(sources.otherReleased.value == 1)
    }

    @Test func aProducerStartsTheTriggerFirst() {
        let recorder = Recorder<Int, TestError>()
        Harness.countingProducer(upTo: 3).producer.skip(until: SignalProducer(value: ())).start(recorder.observer)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
    }

    @Test func aProducerInterruptsTheTriggersStartWhenItEnds() {
        let triggerEnded = Counter()
        let trigger = SignalProducer<(), Never>.never.on(disposed: { triggerEnded.increment() })
        let recorder = Recorder<Int, TestError>()
        Harness.countingProducer(upTo: 3).producer.skip(until: trigger).start(recorder.observer)
        #expect(recorder.events == [.completed])
        #expect(triggerEnded.value == 1)
    }

    @Test func aProducerSkipsUntilASignalFires() {
        let (trigger, triggerInput) = Signal<(), Never>.pipe()
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        SignalProducer(source).skip(until: trigger).start(recorder.observer)
        sourceInput.send(value: 1)
        triggerInput.send(value: ())
        sourceInput.send(value: 2)
        sourceInput.sendCompleted()
        #expect(recorder.events == [.value(2), .completed])
    }
}
