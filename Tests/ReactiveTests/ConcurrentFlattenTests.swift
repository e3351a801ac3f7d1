import Dispatch
import Synchronization
import Testing
@testable import Reactive

@Suite struct ConcurrentFlattenOperatorTests {
    @Test func mergeInterleavesTheValuesOfEveryInnerAsTheyCome() {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let first = IntProbe(), second = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.flatten(.merge).observe(recorder.observer)
        input.send(value: first.producer)
        input.send(value: second.producer)
        first.observer.send(value: 1)
        second.observer.send(value: 2)
        first.observer.send(value: 3)
        #expect(recorder.values == [1, 2, 3])
    }

    @Test func mergeCompletesOnlyWhenTheOuterAndEveryInnerHaveCompleted() {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let first = IntProbe(), second = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.flatten(.merge).observe(recorder.observer)
        input.send(value: first.producer)
        input.send(value: second.producer)
        first.observer.sendCompleted()
        input.sendCompleted()
        #expect(recorder.terminal == nil)
        second.observer.sendCompleted()
        #expect(recorder.events == [.completed])
    }

    @Test func theOuterFailingFailsTheResultAndDisposesTheInners() {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let inner = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.flatten(.merge).observe(recorder.observer)
        input.send(value: inner.producer)
        input.send(error: TestError(code: 7))
        #expect(recorder.events == [.failed(TestError(code: 7))])
        #expect(inner.hasEnded)
    }

    @Test func anInnerFailingFailsTheResultAndDisposesTheOuterAndTheOtherInners() {
        let outer = OuterProbe(), failing = IntProbe(), other = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.merge).start(recorder.observer)
        outer.observer.send(value: failing.producer)
        outer.observer.send(value: other.producer)
        failing.observer.send(error: TestError(code: 2))
        #expect(recorder.events == [.failed(TestError(code: 2))])
        #expect(outer.hasEnded)
        #expect(other.hasEnded)
        other.observer.send(value: 9)
        #expect(recorder.events == [.failed(TestError(code: 2))])
    }

    @Test func anInnerBeingInterruptedInterruptsTheResult() {
        let outer = OuterProbe(), inner = IntProbe(), other = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.merge).start(recorder.observer)
        outer.observer.send(value: inner.producer)
        outer.observer.send(value: other.producer)
        inner.observer.sendInterrupted()
        #expect(recorder.events == [.interrupted])
        #expect(outer.hasEnded)
        #expect(other.hasEnded)
    }

    @Test func theOuterBeingInterruptedInterruptsTheResult() {
        let outer = OuterProbe(), inner = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.concat).start(recorder.observer)
        outer.observer.send(value: inner.producer)
        outer.observer.sendInterrupted()
        #expect(recorder.events == [.interrupted])
        #expect(inner.hasEnded)
    }

    @Test func disposingTheResultEndsTheOuterAndEveryInner() {
        let outer = OuterProbe(), first = IntProbe(), second = IntProbe()
        let recorder = Recorder<Int, TestError>()
        let disposable = outer.producer.flatten(.merge).start(recorder.observer)
        outer.observer.send(value: first.producer)
        outer.observer.send(value: second.producer)
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
        #expect(outer.hasEnded)
        #expect(first.hasEnded)
        #expect(second.hasEnded)
    }

    @Test func releasingTheResultSignalWithNoObserversDisposesItsInners() {
        let (outer, input) = Signal<IntProducer, TestError>.pipe()
        let inner = IntProbe()
        do {
            let flattened = outer.flatten(.merge)
            let observation = flattened.observe { _ in }
            input.send(value: inner.producer)
            observation.dispose()
        }
        #expect(inner.hasEnded)
    }

    @Test func concatStartsEachInnerOnlyWhenThePreviousOneHasCompleted() {
        let outer = OuterProbe(), first = IntProbe(), second = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.concat).start(recorder.observer)
        outer.observer.send(value: first.producer)
        outer.observer.send(value: second.producer)
        outer.observer.sendCompleted()
        #expect(second.startCount == 0)
        first.observer.send(value: 1)
        first.observer.sendCompleted()
        #expect(second.startCount == 1)
        second.observer.send(value: 2)
        #expect(recorder.terminal == nil)
        second.observer.sendCompleted()
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func aConcurrencyLimitQueuesTheInnersBeyondItAndStartsThemInOrder() {
        let outer = OuterProbe()
        let probes = (0..<4).map { _ in IntProbe() }
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.concurrent(limit: 2)).start(recorder.observer)
        for probe in probes { outer.observer.send(value: probe.producer) }
        #expect(probes.map(\.startCount) == [1, 1, 0, 0])
        probes[1].observer.sendCompleted()
        #expect(probes.map(\.startCount) == [1, 1, 1, 0])
        probes[0].observer.sendCompleted()
        #expect(probes.map(\.startCount) == [1, 1, 1, 1])
        probes[3].observer.send(value: 4)
        probes[2].observer.send(value: 3)
        #expect(recorder.values == [4, 3])
    }

    @Test func queuedInnersNeverStartOnceAnInnerHasFailed() {
        let outer = OuterProbe(), first = IntProbe(), queued = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.concat).start(recorder.observer)
        outer.observer.send(value: first.producer)
        outer.observer.send(value: queued.producer)
        first.observer.send(error: TestError())
        #expect(queued.startCount == 0)
        #expect(recorder.events == [.failed(TestError())])
    }

    @Test func concatOfQueuedSynchronousProducersStartedByOneCompletionRunsInConstantStack() {
        let first = IntProbe()
        let inners = [first.producer] + (0..<100_000).map { IntProducer(value: $0) }
        let received = Counter()
        SignalProducer<IntProducer, TestError>(inners).flatten(.concat).startWithValues { _ in received.increment() }
        #expect(received.value == 0)
        // Every queued producer now starts from inside this one completion.
        first.observer.sendCompleted()
        #expect(received.value == 100_000)
    }

    @Test func aSignalOfSignalsCanBeMerged() {
        let (outer, input) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let (first, firstInput) = Signal<Int, TestError>.pipe()
        let (second, secondInput) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        outer.flatten(.merge).observe(recorder.observer)
        input.send(value: first)
        input.send(value: second)
        secondInput.send(value: 2)
        firstInput.send(value: 1)
        input.sendCompleted()
        firstInput.sendCompleted()
        secondInput.sendCompleted()
        #expect(recorder.events == [.value(2), .value(1), .completed])
    }

    @Test func innersSendingFromManyThreadsAtOnceLoseNothingAndCompleteOnce() {
        let pipes = (0..<4).map { _ in Signal<Int, TestError>.pipe() }
        let received = Counter(), completed = Counter()
        SignalProducer<Signal<Int, TestError>, TestError>(pipes.map(\.output)).flatten(.merge)
            .start(Observer(value: { _ in received.increment() }, completed: completed.increment))
        DispatchQueue.concurrentPerform(iterations: pipes.count) { index in
            for value in 0..<2_000 { pipes[index].input.send(value: value) }
            pipes[index].input.sendCompleted()
        }
        #expect(received.value == 8_000)
        #expect(completed.value == 1)
    }

    @Test func aConcurrencyLimitHoldsWhenInnersCompleteOnOtherThreads() {
        let running = Atomic<Int>(0), mostRunning = Atomic<Int>(0)
        let inners = (0..<50).map { value in
            IntProducer { observer, _ in
                let now = running.add(1, ordering: .sequentiallyConsistent).newValue
                mostRunning.max(now, ordering: .sequentiallyConsistent)
                DispatchQueue.global().async {
                    observer.send(value: value)
                    running.subtract(1, ordering: .sequentiallyConsistent)
                    observer.sendCompleted()
                }
            }
        }
        let done = DispatchSemaphore(value: 0)
        let recorder = Recorder<Int, TestError>()
        SignalProducer<IntProducer, TestError>(inners).flatten(.concurrent(limit: 3))
            .startRecording(into: recorder.observer) { done.signal() }
        done.wait()
        #expect(Set(recorder.values) == Set(0..<50))
        #expect(recorder.terminal == .completed)
        #expect(mostRunning.load(ordering: .sequentiallyConsistent) <= 3)
    }
}
