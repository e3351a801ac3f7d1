import Testing
@testable import Reactive

/// Disposing a start interrupts its innermost start; the interruption reaches the observer through the
/// operators in between, so an asynchronous one delivers it on its scheduler (as in ReactiveSwift 2+).
@Suite struct StartInterrupterTests {
    @Test func observeOnDeliversTheInterruptionOnItsSchedulerAfterTheValuesItScheduled() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer(signal).observe(on: scheduler).start(recorder.observer)
        input.send(value: 1)
        disposable.dispose()
        #expect(recorder.events.isEmpty)
        input.send(value: 2)
        scheduler.advance()
        #expect(recorder.events == [.value(1), .interrupted])
    }

    @Test func synchronousOperatorsAfterTheHopKeepTheInterruptionOnTheScheduler() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer(signal).observe(on: scheduler).map { $0 * 10 }.filter { _ in true }
            .start(recorder.observer)
        input.send(value: 1)
        disposable.dispose()
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.events == [.value(10), .interrupted])
    }

    @Test func theUpstreamWorkStopsAtOnceWhileTheInterruptionWaitsForTheScheduler() {
        let scheduler = TestScheduler()
        let probe = IntProbe()
        let recorder = Recorder<Int, TestError>()
        let disposable = probe.producer.observe(on: scheduler).start(recorder.observer)
        disposable.dispose()
        #expect(probe.hasEnded)
        #expect(recorder.events.isEmpty)
        probe.observer.send(value: 1)
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
    }

    @Test func anObserverDisposingItsOwnStartGetsTheValuesAlreadyScheduledThenTheInterruption() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = Slot<any Disposable>()
        disposable.value = SignalProducer(signal).observe(on: scheduler).start { event in
            recorder.observer.send(event)
            if event.value == 1 { disposable.value?.dispose() }
        }
        input.send(value: 1)
        input.send(value: 2)
        scheduler.advance()
        input.send(value: 3)
        scheduler.advance()
        #expect(recorder.events == [.value(1), .value(2), .interrupted])
    }

    @Test func delaySendsTheInterruptionOnItsSchedulerAndDropsTheValuesStillWaiting() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer(signal).delay(.seconds(1), on: scheduler).start(recorder.observer)
        input.send(value: 1)
        disposable.dispose()
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .seconds(2))
        #expect(recorder.events == [.interrupted])
    }

    @Test func throttleSendsTheInterruptionOnItsScheduler() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer(signal).throttle(.seconds(1), on: scheduler).start(recorder.observer)
        input.send(value: 1)
        scheduler.advance()
        input.send(value: 2)
        disposable.dispose()
        #expect(recorder.events == [.value(1)])
        scheduler.advance(by: .seconds(2))
        #expect(recorder.events == [.value(1), .interrupted])
    }

    @Test func debounceSendsTheInterruptionOnItsScheduler() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer(signal).debounce(.seconds(1), on: scheduler).start(recorder.observer)
        input.send(value: 1)
        disposable.dispose()
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .seconds(2))
        #expect(recorder.events == [.interrupted])
    }

    @Test func startOnForwardsTheInterruptionToAnObserveOnInsideOnceStarted() {
        let startScheduler = TestScheduler(), deliveryScheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer(signal).observe(on: deliveryScheduler).start(on: startScheduler)
            .start(recorder.observer)
        startScheduler.advance()
        input.send(value: 1)
        disposable.dispose()
        #expect(recorder.events.isEmpty)
        deliveryScheduler.advance()
        #expect(recorder.events == [.value(1), .interrupted])
    }

    @Test func startOnDisposedBeforeItStartsIsInterruptedAtOnceAndNeverStarts() {
        let scheduler = TestScheduler()
        let probe = IntProbe()
        let recorder = Recorder<Int, TestError>()
        let disposable = probe.producer.start(on: scheduler).start(recorder.observer)
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
        scheduler.advance()
        #expect(probe.startCount == 0)
    }

    @Test func timeoutDoesNotHopSoItsInterruptionArrivesOnTheDisposingThread() {
        let scheduler = TestScheduler()
        let (signal, _input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        let disposable = SignalProducer(signal).timeout(after: .seconds(1), raising: TestError(), on: scheduler)
            .start(recorder.observer)
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
        scheduler.advance(by: .seconds(2))
        #expect(recorder.events == [.interrupted])
        withExtendedLifetime(_input) {}
    }

    @Test func withoutAnAsynchronousOperatorTheInterruptionIsDeliveredBeforeDisposeReturns() {
        let probe = IntProbe()
        let recorder = Recorder<Int, TestError>()
        let disposable = probe.producer.map { $0 + 1 }.start(recorder.observer)
        probe.observer.send(value: 1)
        disposable.dispose()
        #expect(recorder.events == [.value(2), .interrupted])
        #expect(probe.hasEnded)
    }
}
