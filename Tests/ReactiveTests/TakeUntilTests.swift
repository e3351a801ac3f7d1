import Testing
@testable import Reactive

@Suite struct TakeUntilOperatorTests {
    typealias Harness = BasicOperatorHarness

    @Test func sendsTheValuesUntilTheTriggerFiresThenCompletes() {
        let sources = Harness.watchedSources { $0.take(until: $1) }
        sources.input.send(value: 1)
        sources.input.send(value: 2)
        sources.otherInput.send(value: ())
        sources.input.send(value: 3)
        #expect(sources.recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func aCompletingTriggerAlsoCompletesTheResult() {
        let sources = Harness.watchedSources { $0.take(until: $1) }
        sources.input.send(value: 1)
        sources.otherInput.sendCompleted()
        #expect(sources.recorder.events == [.value(1), .completed])
    }

    @Test func anInterruptedTriggerNeverFires() {
        let sources = Harness.watchedSources { $0.take(until: $1) }
        sources.otherInput.sendInterrupted()
        sources.input.send(value: 1)
        sources.input.sendCompleted()
        #expect(sources.recorder.events == [.value(1), .completed])
    }

    @Test(arguments: Harness.terminalEvents)
    func passesTheSourcesTerminalEventAndReleasesBothSources(terminal: Event<Int, TestError>) {
        let sources = Harness.watchedSources { $0.take(until: $1) }
        sources.input.send(value: 1)
        sources.input.send(terminal)
        #expect(sources.recorder.events == [.value(1), terminal])
        #expect(sources.released.value == 1)
        #expect(sources.otherReleased.value == 1)
    }

    @Test func stopsObservingBothSourcesWhenTheTriggerFires() {
        let sources = Harness.watchedSources { $0.take(until: $1) }
        #expect(sources.released.value == 0)
        sources.otherInput.send(value: ())
        #expect(sources.released.value == 1)
        #expect(sources.otherReleased.value == 1)
    }

    @Test func aProducerStartsTheTriggerFirst() {
        let (producer, sent, _) = Harness.countingProducer(upTo: 3)
        let recorder = Recorder<Int, TestError>()
        producer.take(until: SignalProducer(value: ())).start(recorder.observer)
        #expect(recorder.events == [.completed])
        #expect(sent.value == 0)
    }

    @Test func aProducerInterruptsBothStartsWhenTheTriggerFires() {
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let (trigger, triggerInput) = Signal<(), Never>.pipe()
        let sourceEnded = Counter()
        let triggerEnded = Counter()
        let producer = SignalProducer(source).on(disposed: { sourceEnded.increment() })
            .take(until: SignalProducer(trigger).on(disposed: { triggerEnded.increment() }))
        let recorder = Recorder<Int, TestError>()
        producer.start(recorder.observer)
        sourceInput.send(value: 1)
        triggerInput.send(value: ())
        sourceInput.send(value: 2)
        #expect(recorder.events == [.value(1), .completed])
        #expect(sourceEnded.value == 1)
        #expect(triggerEnded.value == 1)
    }

    @Test func aProducerTakesUntilASignalFires() {
        let (trigger, triggerInput) = Signal<(), Never>.pipe()
        let ended = Counter()
        let producer = SignalProducer<Int, TestError> { observer, lifetime in
            lifetime.observeEnded { ended.increment() }
            observer.send(value: 1)
        }
        let recorder = Recorder<Int, TestError>()
        producer.take(until: trigger).start(recorder.observer)
        #expect(recorder.events == [.value(1)])
        triggerInput.send(value: ())
        #expect(recorder.events == [.value(1), .completed])
        #expect(ended.value == 1)
    }
}
