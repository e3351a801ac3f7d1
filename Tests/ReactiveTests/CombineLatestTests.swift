import Dispatch
import Testing
@testable import Reactive

@Suite struct CombineLatestOperatorTests {
    @Test func waitsForEverySourceThenSendsTheLatestValuesOnEachChange() {
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<String, TestError>.pipe()
        let recorder = Recorder<String, TestError>()
        Signal.combineLatest(a, b).map { "\($0)\($1)" }.observe(recorder.observer)
        aInput.send(value: 1)
        aInput.send(value: 2)
        #expect(recorder.values.isEmpty)
        bInput.send(value: "x")
        aInput.send(value: 3)
        bInput.send(value: "y")
        #expect(recorder.values == ["2x", "3x", "3y"])
    }

    @Test func completesOnlyWhenEverySourceHasCompleted() {
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<[Int], TestError>()
        a.combineLatest(with: b).map { [$0, $1] }.observe(recorder.observer)
        aInput.send(value: 1)
        bInput.send(value: 2)
        aInput.sendCompleted()
        bInput.send(value: 3)
        #expect(recorder.terminal == nil)
        bInput.sendCompleted()
        #expect(recorder.events == [.value([1, 2]), .value([1, 3]), .completed])
    }

    @Test func failsOrIsInterruptedAsSoonAsOneSourceIs() {
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<Int, TestError>.pipe()
        let failed = Recorder<(Int, Int), TestError>()
        Signal.combineLatest(a, b).observe(failed.observer)
        bInput.send(error: TestError(code: 9))
        aInput.send(value: 1)
        #expect(failed.events.count == 1)
        #expect(failed.terminal?.error == TestError(code: 9))

        let (c, cInput) = Signal<Int, TestError>.pipe()
        let (d, _) = Signal<Int, TestError>.pipe()
        let interrupted = Recorder<(Int, Int), TestError>()
        Signal.combineLatest(c, d).observe(interrupted.observer)
        cInput.sendInterrupted()
        #expect(interrupted.events.count == 1)
        #expect(interrupted.terminal.map { if case .interrupted = $0 { true } else { false } } == true)
    }

    @Test func anArrayOfSignalsCombinesIntoArraysInTheGivenOrder() {
        let pipes = (0..<3).map { _ in Signal<Int, TestError>.pipe() }
        let recorder = Recorder<[Int], TestError>()
        Signal.combineLatest(pipes.map(\.output)).observe(recorder.observer)
        pipes[2].input.send(value: 3)
        pipes[0].input.send(value: 1)
        #expect(recorder.values.isEmpty)
        pipes[1].input.send(value: 2)
        pipes[0].input.send(value: 10)
        #expect(recorder.values == [[1, 2, 3], [10, 2, 3]])
    }

    @Test func anEmptyArrayCompletesAtOnce() {
        let recorder = Recorder<[Int], TestError>()
        SignalProducer<[Int], TestError>.combineLatest([IntProducer]()).start(recorder.observer)
        #expect(recorder.events == [.completed])
    }

    @Test func theReduceVariantsApplyTheirFunctionToTheLatestValues() {
        let sum = Recorder<Int, TestError>()
        SignalProducer.combineLatest([IntProducer(value: 1), IntProducer(values: 2, 5)], reduce: { $0.reduce(0, +) })
            .start(sum.observer)
        #expect(sum.events == [.value(3), .value(6), .completed])

        let text = Recorder<String, TestError>()
        SignalProducer.combineLatest(IntProducer(value: 1), SignalProducer(value: "b"), reduce: { "\($0)\($1)" })
            .start(text.observer)
        #expect(text.events == [.value("1b"), .completed])

        let four = Recorder<Int, TestError>()
        let (a, aInput) = Signal<Int, TestError>.pipe()
        Signal.combineLatest(a, a, a, a, reduce: { $0 + $1 + $2 + $3 }).observe(four.observer)
        aInput.send(value: 1)
        #expect(four.values == [4])
    }

    @Test func synchronousProducersStartInOrderAndCombineTheLastValueOfTheEarlierOnes() {
        let recorder = Recorder<String, TestError>()
        SignalProducer.combineLatest(IntProducer(values: 1, 2), SignalProducer(values: "a", "b"))
            .map { "\($0)\($1)" }
            .start(recorder.observer)
        #expect(recorder.events == [.value("2a"), .value("2b"), .completed])
    }

    @Test func upToSixSourcesCombineIntoFlatTuples() {
        let recorder = Recorder<[Int], TestError>()
        let p = { (n: Int) in IntProducer(value: n) }
        SignalProducer.combineLatest(p(1), p(2), p(3)).map { [$0, $1, $2] }.start(recorder.observer)
        SignalProducer.combineLatest(p(1), p(2), p(3), p(4)).map { [$0, $1, $2, $3] }.start(recorder.observer)
        SignalProducer.combineLatest(p(1), p(2), p(3), p(4), p(5)).map { [$0, $1, $2, $3, $4] }
            .start(recorder.observer)
        SignalProducer.combineLatest(p(1), p(2), p(3), p(4), p(5), p(6)).map { [$0, $1, $2, $3, $4, $5] }
            .start(recorder.observer)
        #expect(recorder.values == [[1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6]])
    }

    @Test func disposingTheCombinationEndsEverySource() {
        let a = IntProbe(), b = IntProbe(), c = IntProbe()
        let disposable = SignalProducer.combineLatest([a.producer, b.producer, c.producer]).start()
        let pair = SignalProducer.combineLatest(a.producer, b.producer).start()
        #expect(a.startCount == 2 && !a.hasEnded)
        disposable.dispose()
        pair.dispose()
        #expect(a.allEnded && b.allEnded && c.allEnded)
    }

    @Test func sourcesSendingFromTwoThreadsAtOnceEndWithBothLastValues() {
        let a = Signal<Int, TestError>.pipe(), b = Signal<Int, TestError>.pipe()
        let recorder = Recorder<[Int], TestError>()
        Signal.combineLatest(a.output, b.output).map { [$0, $1] }.observe(recorder.observer)
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            let input = side == 0 ? a.input : b.input
            for value in 0..<2_000 { input.send(value: value) }
            input.sendCompleted()
        }
        #expect(recorder.values.last == [1_999, 1_999])
        #expect(recorder.terminal == .completed)
        #expect(recorder.events.filter(\.isTerminating).count == 1)
    }
}
