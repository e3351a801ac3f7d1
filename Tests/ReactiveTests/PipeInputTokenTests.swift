import Testing
@testable import Reactive

/// A pipe whose input is released is interrupted, as in ReactiveSwift: its disposable is disposed and
/// its observers are released.
@Suite struct PipeInputTokenTests {
    @Test func releasingTheInputInterruptsTheSignalDisposesItsDisposableAndReleasesItsObservers() {
        let disposable = AnyDisposable()
        let recorder = Recorder<Int, Never>()
        weak var witness: Witness?
        do {
            let (signal, input) = Signal<Int, Never>.pipe(disposable: disposable)
            let observed = Witness()
            witness = observed
            signal.observe { event in withExtendedLifetime(observed) { recorder.observer.send(event) } }
            input.send(value: 1)
        }
        #expect(recorder.events == [.value(1), .interrupted])
        #expect(disposable.isDisposed)
        #expect(witness == nil)
    }

    @Test func aCopyOfTheInputKeepsTheSignalAlive() {
        let recorder = Recorder<Int, Never>()
        let (signal, input) = Signal<Int, Never>.pipe()
        signal.observe(recorder.observer)
        let copy = Slot(input)
        _ = consume input
        copy.value?.send(value: 1)
        #expect(recorder.events == [.value(1)])
        _ = copy.take()
        #expect(recorder.events == [.value(1), .interrupted])
    }

    @Test func anObserverReleasingTheInputSeesTheInterruptionAfterTheCurrentEventReachedEveryone() {
        let recorder = Recorder<Int, Never>()
        let (signal, input) = Signal<Int, Never>.pipe()
        let slot = Slot(input)
        _ = consume input
        signal.observe(recorder.observer)
        signal.observeValues { _ in _ = slot.take() }
        signal.observe(recorder.observer)
        slot.value?.send(value: 1)
        #expect(recorder.events == [.value(1), .value(1), .interrupted, .interrupted])
    }

    @Test func releasingTheInputOfATerminatedPipeSendsNothingMore() {
        let recorder = Recorder<Int, Never>()
        let disposable = AnyDisposable()
        do {
            let (signal, input) = Signal<Int, Never>.pipe(disposable: disposable)
            signal.observe(recorder.observer)
            input.sendCompleted()
        }
        #expect(recorder.events == [.completed])
        #expect(disposable.isDisposed)
    }

    @Test func aProducerOfAReleasedPipeIsInterrupted() {
        let recorder = Recorder<Int, Never>()
        let slot = Slot<Signal<Int, Never>.Observer>()
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            let (signal, input) = Signal<Int, Never>.pipe()
            slot.value = input
            signal.observe(observer, during: lifetime)
        }
        producer.start(recorder.observer)
        slot.value?.send(value: 1)
        _ = slot.take()
        #expect(recorder.events == [.value(1), .interrupted])
    }
}
