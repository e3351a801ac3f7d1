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
