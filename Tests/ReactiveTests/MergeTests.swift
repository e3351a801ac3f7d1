import Testing
@testable import Reactive

@Suite struct MergeOperatorTests {
    @Test func mergedSignalsInterleaveTheirValuesAndCompleteWhenAllHave() {
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        Signal.merge(a, b).observe(recorder.observer)
        aInput.send(value: 1)
        bInput.send(value: 2)
        aInput.sendCompleted()
        aInput.send(value: 3)
        #expect(recorder.terminal == nil)
        bInput.send(value: 4)
        bInput.sendCompleted()
        #expect(recorder.events == [.value(1), .value(2), .value(4), .completed])
    }

    @Test func mergingAnArrayOfSignalsFailsWhenOneFails() {
        let pipes = (0..<3).map { _ in Signal<Int, TestError>.pipe() }
        let recorder = Recorder<Int, TestError>()
        Signal.merge(pipes.map(\.output)).observe(recorder.observer)
        pipes[2].input.send(value: 1)
        pipes[1].input.send(error: TestError(code: 6))
        pipes[0].input.send(value: 2)
        #expect(recorder.events == [.value(1), .failed(TestError(code: 6))])
    }

    @Test func mergingNoSignalsCompletesAtOnce() {
        let recorder = Recorder<Int, TestError>()
        Signal<Int, TestError>.merge([]).observe(recorder.observer)
        #expect(recorder.events == [.completed])
    }

    @Test func mergeWithForwardsBothSignalsAndIsInterruptedWithEither() {
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        a.merge(with: b).observe(recorder.observer)
        bInput.send(value: 1)
        aInput.sendInterrupted()
        #expect(recorder.events == [.value(1), .interrupted])
    }

    @Test func mergedProducersAreStartedTogetherAndDisposedTogether() {
        let a = IntProbe(), b = IntProbe()
        let recorder = Recorder<Int, TestError>()
        let disposable = SignalProducer.merge(a.producer, b.producer).start(recorder.observer)
        #expect(a.startCount == 1 && b.startCount == 1)
        b.observer.send(value: 2)
        a.observer.send(value: 1)
        disposable.dispose()
        #expect(recorder.events == [.value(2), .value(1), .interrupted])
        #expect(a.hasEnded && b.hasEnded)
    }

    @Test func mergingAnArrayOfSynchronousProducersSendsTheirValuesInOrder() {
        let recorder = Recorder<Int, TestError>()
        SignalProducer.merge([IntProducer(values: 1, 2), .empty, IntProducer(value: 3)])
            .merge(with: IntProducer(value: 4))
            .start(recorder.observer)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .value(4), .completed])
    }
}
