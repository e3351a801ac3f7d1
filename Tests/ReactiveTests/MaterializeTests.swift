import Testing
@testable import Reactive

@Suite struct MaterializeOperatorTests {
    typealias Harness = BasicOperatorHarness
    typealias Carried = Event<Int, TestError>

    @Test(arguments: [Carried.failed(TestError(code: 3)), .completed])
    func materializeSendsEveryEventAsAValueThenCompletes(terminal: Carried) {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Carried, Never>()
        signal.materialize().observe(recorder.observer)
        input.send(value: 1)
        input.send(terminal)
        #expect(recorder.events == [.value(.value(1)), .value(terminal), .completed])
    }

    @Test func materializePassesAnInterruptionOnAsItsOwn() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Carried, Never>()
        signal.materialize().observe(recorder.observer)
        input.sendInterrupted()
        #expect(recorder.events == [.value(.interrupted), .interrupted])
    }

    @Test(arguments: Harness.terminalEvents)
    func dematerializeTurnsTheCarriedEventsBackIntoEvents(terminal: Carried) {
        let (signal, input) = Signal<Carried, Never>.pipe()
        let recorder = Recorder<Int, TestError>()
        signal.dematerialize().observe(recorder.observer)
        input.send(value: .value(1))
        input.send(value: .value(2))
        input.send(value: terminal)
        input.send(value: .value(3))
        #expect(recorder.events == [.value(1), .value(2), terminal])
    }

    @Test func dematerializeStopsObservingItsSourceAtTheFirstCarriedTerminalEvent() {
        let released = Counter()
        let (dematerialized, input): (Signal<Int, TestError>, Observer<Carried, Never>) = {
            let (signal, input) = Signal<Carried, Never>.pipe(disposable: AnyDisposable { released.increment() })
            return (signal.dematerialize(), input)
        }()
        let recorder = Recorder<Int, TestError>()
        dematerialized.observe(recorder.observer)
        input.send(value: .value(1))
        #expect(released.value == 0)
        input.send(value: .failed(TestError(code: 8)))
        #expect(released.value == 1)
        #expect(recorder.events == [.value(1), .failed(TestError(code: 8))])
    }

    @Test(arguments: [Event<Carried, Never>.completed, .interrupted])
    func dematerializePassesTheSourcesOwnEndThrough(end: Event<Carried, Never>) {
        let (signal, input) = Signal<Carried, Never>.pipe()
        let recorder = Recorder<Int, TestError>()
        signal.dematerialize().observe(recorder.observer)
        input.send(value: .value(1))
        input.send(end)
        let expected: Event<Int, TestError> = end.isCompleted ? .completed : .interrupted
        #expect(recorder.events == [.value(1), expected])
    }

    @Test func aProducerRoundTripsThroughMaterializeAndDematerialize() {
        let materialized = Recorder<Carried, Never>()
        SignalProducer<Int, TestError>(error: TestError(code: 6)).materialize().start(materialized.observer)
        #expect(materialized.events == [.value(.failed(TestError(code: 6))), .completed])

        let roundTrip = Recorder<Int, TestError>()
        Harness.countingProducer(upTo: 2).producer.materialize().dematerialize().start(roundTrip.observer)
        #expect(roundTrip.events == [.value(1), .value(2), .completed])
    }
}
