import Testing
@testable import Reactive

@Suite struct SignalTests {
    @Test func anObserverSeesTheEventsSentAfterItAttached() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        input.send(value: 0)
        let recorder = Recorder<Int, TestError>()
        signal.observe(recorder.observer)
        input.send(value: 1)
        input.send(value: 2)
        input.sendCompleted()
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func nothingFollowsATerminalEvent() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        signal.observe(recorder.observer)
        input.send(error: TestError())
        input.send(value: 1)
        input.sendCompleted()
        #expect(recorder.events == [.failed(TestError())])
    }

    @Test func anObserverAttachedAfterTerminationReceivesTheTerminalEvent() {
        let (signal, input) = Signal<Int, Never>.pipe()
        input.sendCompleted()
        let recorder = Recorder<Int, Never>()
        signal.observe(recorder.observer)
        #expect(recorder.events == [.completed])
    }

    @Test func aDisposedObserverReceivesNothingMore() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = signal.observe(recorder.observer)
        input.send(value: 1)
        disposable.dispose()
        input.send(value: 2)
        #expect(recorder.values == [1])
        #expect(disposable.isDisposed)
    }

    @Test func aReentrantSendIsDeliveredAfterTheCurrentEventReachesEveryObserver() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let first = Recorder<Int, Never>()
        let second = Recorder<Int, Never>()
        signal.observeValues { value in
            if value == 1 { input.send(value: 2) }
        }
        signal.observe(first.observer)
        signal.observe(second.observer)
        input.send(value: 1)
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2])
    }

    @Test func anObserverDisposedInsideACallbackMissesTheRestOfThatEvent() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let later = Recorder<Int, Never>()
        let laterDisposable = SerialDisposable()
        signal.observeValues { _ in laterDisposable.dispose() }
        laterDisposable.inner = signal.observe(later.observer)
        input.send(value: 1)
        #expect(later.values.isEmpty)
    }

    @Test func anObserverAttachedInsideACallbackStartsWithTheNextEvent() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let late = Recorder<Int, Never>()
        let attached = Counter()
        signal.observeValues { _ in
            if attached.value == 0 {
                attached.increment()
                signal.observe(late.observer)
            }
        }
        input.send(value: 1)
        input.send(value: 2)
        #expect(late.values == [2])
    }

    @Test func aSignalWithNoObserversAndNoHandleEndsItsGeneratorLifetime() {
        let ended = Counter()
        var signal: Signal<Int, Never>? = Signal { _, lifetime in
            lifetime.observeEnded { ended.increment() }
        }
        let disposable = signal!.observeValues { _ in }
        signal = nil
        #expect(ended.value == 0)
        disposable.dispose()
        #expect(ended.value == 1)
    }

    @Test func aDisposedOperatorChainReleasesItsClosures() {
        let (signal, input) = Signal<Int, Never>.pipe()
        weak var weakWitness: Witness?
        var disposable: (any Disposable)?
        do {
            let witness = Witness()
            weakWitness = witness
            disposable = signal
                .map { value in withExtendedLifetime(witness) { value + 1 } }
                .filter { _ in true }
                .observeValues { _ in withExtendedLifetime(witness) {} }
        }
        input.send(value: 1)
        #expect(weakWitness != nil)
        disposable?.dispose()
        #expect(weakWitness == nil)
        #expect(disposable?.isDisposed == true)
    }
}
