import Dispatch
import Testing
@testable import Reactive

/// Disposing a start of an operator with several upstream starts (binary operators, `combineLatest` and
/// `zip` of many, `retry`, `repeat`, `bind`) interrupts those starts, and the interruption reaches the
/// result through them; flatten's inner producers and multicast subscribers are not forwarded to.
@Suite struct InterruptionForwardingTests {
    @Test func combineLatestOfTwoHoppingSidesIsInterruptedOnTheScheduler() {
        let scheduler = TestScheduler()
        let (left, leftInput) = Signal<Int, Never>.pipe()
        let (right, rightInput) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer(left).observe(on: scheduler)
            .combineLatest(with: SignalProducer(right).observe(on: scheduler))
            .map { $0 + $1 }
            .start(recorder.observer)
        leftInput.send(value: 1)
        rightInput.send(value: 10)
        disposable.dispose()
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.events == [.value(11), .interrupted])
    }

    @Test func combineLatestWhoseOtherSideCompletedIsInterruptedThroughTheHoppingSide() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer(signal).observe(on: scheduler)
            .combineLatest(with: SignalProducer(value: 10))
            .map { $0 + $1 }
            .start(recorder.observer)
        input.send(value: 1)
        scheduler.advance()
        input.send(value: 2)
        disposable.dispose()
        #expect(recorder.events == [.value(11)])
        scheduler.advance()
        #expect(recorder.events == [.value(11), .value(12), .interrupted])
    }

    @Test func withAHopOnOneSideOnlyTheOtherSidesInterruptionArrivesFirstAndEndsTheResult() {
        let scheduler = TestScheduler()
        let (left, leftInput) = Signal<Int, Never>.pipe()
        let (right, rightInput) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer(left).observe(on: scheduler)
            .combineLatest(with: SignalProducer(right))
            .map { $0 + $1 }
            .start(recorder.observer)
        leftInput.send(value: 1)
        rightInput.send(value: 10)
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
    }

    @Test func zipOfManyIsInterruptedOnTheSchedulerOfItsSides() {
        let scheduler = TestScheduler()
        let (left, leftInput) = Signal<Int, Never>.pipe()
        let (right, rightInput) = Signal<Int, Never>.pipe()
        let recorder = Recorder<[Int], Never>()
        let disposable = SignalProducer<[Int], Never>.zip([
            SignalProducer(left).observe(on: scheduler), SignalProducer(right).observe(on: scheduler),
        ]).start(recorder.observer)
        leftInput.send(value: 1)
        rightInput.send(value: 2)
        disposable.dispose()
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.events == [.value([1, 2]), .interrupted])
    }

    @Test func takeUntilIgnoresItsTriggersInterruptionAndEndsWithItsSourcesOnTheScheduler() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let (trigger, _triggerInput) = Signal<Void, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer(signal).observe(on: scheduler).take(until: SignalProducer(trigger))
            .start(recorder.observer)
        input.send(value: 1)
        disposable.dispose()
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.events == [.value(1), .interrupted])
        withExtendedLifetime(_triggerInput) {}
    }

    @Test func retryInterruptsTheAttemptRunningAndItsInterruptionKeepsItsHop() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        let disposable = SignalProducer(signal).observe(on: scheduler).retry(upTo: 1).start(recorder.observer)
        input.send(value: 1)
        disposable.dispose()
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.events == [.value(1), .interrupted])
    }

    @Test func repeatInterruptsTheStartRunningAndItsInterruptionKeepsItsHop() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer(signal).observe(on: scheduler).repeat(2).start(recorder.observer)
        input.send(value: 1)
        disposable.dispose()
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.events == [.value(1), .interrupted])
    }

    @Test func onAfterAHopSeesTheInterruptionOnTheScheduler() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let interruptions = Counter()
        let disposable = SignalProducer(signal).observe(on: scheduler)
            .on(interrupted: { interruptions.increment() })
            .start(recorder.observer)
        input.send(value: 1)
        disposable.dispose()
        #expect(recorder.events.isEmpty)
        #expect(interruptions.value == 0)
        scheduler.advance()
        #expect(recorder.events == [.value(1), .interrupted])
        #expect(interruptions.value == 1)
    }

    /// The race `StartInterrupter` used to document, made deterministic by a hop: the value that makes
    /// the binding stop was scheduled before the interruption, so the bind stops after disposal.
    @Test func bindStoppingAfterItsStartWasDisposedIsInterruptedNotLeftRunning() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer(signal).observe(on: scheduler)
            .bind { { _, stop in stop = true; return SignalProducer<Int, Never>.never } }
            .start(recorder.observer)
        input.send(value: 1)
        disposable.dispose()
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
    }

    @Test func bindStoppingBeforeDisposalIsInterruptedAtOnceWhenDisposed() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let (inner, _innerInput) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer(signal)
            .bind { { _, stop in stop = true; return SignalProducer(inner) } }
            .start(recorder.observer)
        input.send(value: 1)
        #expect(recorder.events.isEmpty)
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
        withExtendedLifetime(_innerInput) {}
    }

    /// Two threads, one ending the bind through its binding function, one disposing: whichever wins,
    /// the result is interrupted (the inner producer never ends, so nothing else could end it).
    @Test func bindStoppingWhileDisposedOnAnotherThreadIsAlwaysInterrupted() {
        for _ in 0..<2_000 {
            let (signal, input) = Signal<Int, Never>.pipe()
            let recorder = Recorder<Int, Never>()
            let disposable = SignalProducer(signal)
                .bind { { _, stop in stop = true; return SignalProducer<Int, Never>.never } }
                .start(recorder.observer)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 { input.send(value: 1) } else { disposable.dispose() }
            }
            #expect(recorder.events == [.interrupted])
            if recorder.events != [.interrupted] { break }
        }
    }

    /// Not forwarded, as in ReactiveSwift: the outer producer's interruption ends a flatten at once and
    /// disposes the inner producers, whose own hops are not waited for.
    @Test func flattenIsInterruptedAtOnceWhenOnlyItsInnerProducersHop() {
        let scheduler = TestScheduler()
        let (inner, innerInput) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer<Int, Never>(value: 1)
            .flatMap(.merge) { _ in SignalProducer(inner).observe(on: scheduler) }
            .start(recorder.observer)
        innerInput.send(value: 1)
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
    }

    @Test func disposingOneSubscriberOfAReplayedProducerDetachesItAloneAtOnce() {
        let scheduler = TestScheduler()
        let probe = IntProbe()
        let shared = probe.producer.observe(on: scheduler).replayLazily()
        let first = Recorder<Int, TestError>(), second = Recorder<Int, TestError>()
        let disposable = shared.start(first.observer)
        shared.start(second.observer)
        probe.observer.send(value: 1)
        scheduler.advance()
        disposable.dispose()
        #expect(first.events == [.value(1), .interrupted])
        #expect(!probe.hasEnded)
        probe.observer.send(value: 2)
        scheduler.advance()
        #expect(second.events == [.value(1), .value(2)])
        #expect(first.events == [.value(1), .interrupted])
    }

    @Test func disposingOneSubscriberOfAConnectionDetachesItAloneAtOnce() {
        let probe = IntProbe()
        let connection = probe.producer.publish()
        let first = Recorder<Int, TestError>(), second = Recorder<Int, TestError>()
        let disposable = connection.producer.start(first.observer)
        connection.producer.start(second.observer)
        connection.connect()
        probe.observer.send(value: 1)
        disposable.dispose()
        #expect(first.events == [.value(1), .interrupted])
        #expect(!probe.hasEnded)
        probe.observer.send(value: 2)
        #expect(second.events == [.value(1), .value(2)])
    }
}
