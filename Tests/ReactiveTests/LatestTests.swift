import Dispatch
import Foundation
import Synchronization
import Testing
@testable import Reactive

@Suite struct LatestOperatorTests {
    @Test func aNewInnerReplacesAndDisposesThePreviousOne() {
        let outer = OuterProbe(), first = IntProbe(), second = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.latest).start(recorder.observer)
        outer.observer.send(value: first.producer)
        first.observer.send(value: 1)
        outer.observer.send(value: second.producer)
        #expect(first.hasEnded)
        first.observer.send(value: 99)
        second.observer.send(value: 2)
        #expect(recorder.events == [.value(1), .value(2)])
    }

    @Test func theReplacedInnersInterruptionDoesNotInterruptTheResult() {
        let outer = OuterProbe(), first = IntProbe(), second = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.latest).start(recorder.observer)
        outer.observer.send(value: first.producer)
        outer.observer.send(value: second.producer)
        #expect(recorder.terminal == nil)
        #expect(!second.hasEnded)
    }

    @Test func completesWhenTheOuterAndTheCurrentInnerHaveCompleted() {
        let outer = OuterProbe(), first = IntProbe(), second = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.latest).start(recorder.observer)
        outer.observer.send(value: first.producer)
        outer.observer.send(value: second.producer)
        outer.observer.sendCompleted()
        #expect(recorder.terminal == nil)
        second.observer.sendCompleted()
        #expect(recorder.events == [.completed])
    }

    @Test func anInnerCompletingBeforeTheOuterDoesNotCompleteTheResult() {
        let outer = OuterProbe(), first = IntProbe(), second = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.latest).start(recorder.observer)
        outer.observer.send(value: first.producer)
        first.observer.sendCompleted()
        #expect(recorder.terminal == nil)
        outer.observer.send(value: second.producer)
        second.observer.send(value: 2)
        outer.observer.sendCompleted()
        #expect(recorder.terminal == nil)
        second.observer.sendCompleted()
        #expect(recorder.events == [.value(2), .completed])
    }

    @Test func completesAtOnceWhenTheOuterCompletesWithNoInner() {
        let recorder = Recorder<Int, TestError>()
        SignalProducer<IntProducer, TestError>.empty.flatten(.latest).start(recorder.observer)
        #expect(recorder.events == [.completed])
    }

    @Test func theCurrentInnerFailingFailsTheResultAndEndsTheOuter() {
        let outer = OuterProbe(), inner = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.latest).start(recorder.observer)
        outer.observer.send(value: inner.producer)
        inner.observer.send(error: TestError(code: 4))
        #expect(recorder.events == [.failed(TestError(code: 4))])
        #expect(outer.hasEnded)
    }

    @Test func theCurrentInnerBeingInterruptedInterruptsTheResult() {
        let outer = OuterProbe(), inner = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.latest).start(recorder.observer)
        outer.observer.send(value: inner.producer)
        inner.observer.sendInterrupted()
        #expect(recorder.events == [.interrupted])
        #expect(outer.hasEnded)
    }

    @Test func theOuterFailingFailsTheResultAndDisposesTheCurrentInner() {
        let outer = OuterProbe(), inner = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.latest).start(recorder.observer)
        outer.observer.send(value: inner.producer)
        outer.observer.send(error: TestError(code: 5))
        #expect(recorder.events == [.failed(TestError(code: 5))])
        #expect(inner.hasEnded)
    }

    @Test func disposingTheResultEndsTheOuterAndTheCurrentInner() {
        let outer = OuterProbe(), inner = IntProbe()
        let recorder = Recorder<Int, TestError>()
        let disposable = outer.producer.flatten(.latest).start(recorder.observer)
        outer.observer.send(value: inner.producer)
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
        #expect(outer.hasEnded)
        #expect(inner.hasEnded)
    }

    @Test func latestSwitchesBetweenSignalsOfASignal() {
        let (outer, input) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let (first, firstInput) = Signal<Int, TestError>.pipe()
        let (second, secondInput) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        outer.flatten(.latest).observe(recorder.observer)
        input.send(value: first)
        firstInput.send(value: 1)
        input.send(value: second)
        firstInput.send(value: 10)
        secondInput.send(value: 2)
        #expect(recorder.values == [1, 2])
    }
}

@Suite struct LatestSwitchRaceTests {
    @Test func aReplacedInnerSendingOnAnotherThreadNeverGetsAValuePastTheSwitch() {
        let outer = PassthroughSubject<SignalProducer<Int, Never>, Never>()
        let received = Recorder<Int, Never>()
        let latest = Atomic<Int>(-1)
        let flattened = outer.signal.flatten(.latest)
        flattened.observe(received.observer)
        flattened.observeValues { latest.store($0, ordering: .releasing) }
        let group = DispatchGroup()
        for generation in 0..<40 {
            let inner = SignalProducer<Int, Never> { observer, lifetime in
                group.enter()
                Thread {
                    defer { group.leave() }
                    var sent = 0
                    while !lifetime.hasEnded, sent < 20_000 {
                        observer.send(value: generation)
                        sent += 1
                    }
                }.start()
            }
            outer.send(value: inner)
            var spins = 0
            while latest.load(ordering: .acquiring) != generation, spins < 50_000_000 { spins += 1 }
        }
        outer.sendCompleted()
        _ = group.wait(timeout: .now() + 10)
        let generations = received.values
        #expect(zip(generations, generations.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(generations.last == 39)
    }
}
