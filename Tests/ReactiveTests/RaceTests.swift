import Dispatch
import Testing
@testable import Reactive

@Suite struct RaceOperatorTests {
    @Test func theFirstInnerToSendAValueWinsAndTheOthersAreDisposed() {
        let outer = OuterProbe(), slow = IntProbe(), fast = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.race).start(recorder.observer)
        outer.observer.send(value: slow.producer)
        outer.observer.send(value: fast.producer)
        fast.observer.send(value: 2)
        #expect(slow.hasEnded)
        #expect(!fast.hasEnded)
        slow.observer.send(value: 1)
        fast.observer.send(value: 3)
        #expect(recorder.events == [.value(2), .value(3)])
    }

    @Test func innersArrivingAfterTheWinnerAreNeverStarted() {
        let outer = OuterProbe(), winner = IntProbe(), late = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.race).start(recorder.observer)
        outer.observer.send(value: winner.producer)
        winner.observer.send(value: 1)
        outer.observer.send(value: late.producer)
        #expect(late.startCount == 0)
    }

    @Test func theLosersInterruptionDoesNotInterruptTheResult() {
        let outer = OuterProbe(), loser = IntProbe(), winner = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.race).start(recorder.observer)
        outer.observer.send(value: loser.producer)
        outer.observer.send(value: winner.producer)
        winner.observer.send(value: 1)
        outer.observer.sendCompleted()
        #expect(recorder.terminal == nil)
        winner.observer.sendCompleted()
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test func anInnerCompletingWithoutAValueLeavesTheRaceToTheOthers() {
        let outer = OuterProbe(), quitter = IntProbe(), runner = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.race).start(recorder.observer)
        outer.observer.send(value: quitter.producer)
        outer.observer.send(value: runner.producer)
        outer.observer.sendCompleted()
        quitter.observer.sendCompleted()
        #expect(recorder.terminal == nil)
        runner.observer.send(value: 5)
        runner.observer.sendCompleted()
        #expect(recorder.events == [.value(5), .completed])
    }

    @Test func completesWhenEveryInnerCompletedWithoutAValueAndTheOuterCompleted() {
        let recorder = Recorder<Int, TestError>()
        SignalProducer<IntProducer, TestError>(values: .empty, .empty).flatten(.race).start(recorder.observer)
        #expect(recorder.events == [.completed])
    }

    @Test func anInnerFailingBeforeAnyValueFailsTheResultAndDisposesTheOthers() {
        let outer = OuterProbe(), failing = IntProbe(), other = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.race).start(recorder.observer)
        outer.observer.send(value: other.producer)
        outer.observer.send(value: failing.producer)
        failing.observer.send(error: TestError(code: 3))
        #expect(recorder.events == [.failed(TestError(code: 3))])
        #expect(other.hasEnded)
        #expect(outer.hasEnded)
    }

    @Test func theWinnerBeingInterruptedInterruptsTheResult() {
        let outer = OuterProbe(), winner = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.race).start(recorder.observer)
        outer.observer.send(value: winner.producer)
        winner.observer.send(value: 1)
        winner.observer.sendInterrupted()
        #expect(recorder.events == [.value(1), .interrupted])
    }

    @Test func theOuterFailingFailsTheResultAndDisposesTheRunners() {
        let outer = OuterProbe(), runner = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatten(.race).start(recorder.observer)
        outer.observer.send(value: runner.producer)
        outer.observer.send(error: TestError(code: 8))
        #expect(recorder.events == [.failed(TestError(code: 8))])
        #expect(runner.hasEnded)
    }

    @Test func disposingTheResultEndsTheOuterAndEveryRunner() {
        let outer = OuterProbe(), first = IntProbe(), second = IntProbe()
        let recorder = Recorder<Int, TestError>()
        let disposable = outer.producer.flatten(.race).start(recorder.observer)
        outer.observer.send(value: first.producer)
        outer.observer.send(value: second.producer)
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
        #expect(outer.hasEnded && first.hasEnded && second.hasEnded)
    }

    @Test func aSynchronousInnerWinsBeforeLaterOnesStart() {
        let late = IntProbe()
        let recorder = Recorder<Int, TestError>()
        SignalProducer<IntProducer, TestError>(values: IntProducer(values: 1, 2), late.producer)
            .flatten(.race).start(recorder.observer)
        #expect(late.startCount == 0)
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func innersRacingOnManyThreadsLeaveExactlyOneWinner() throws {
        let pipes = (0..<4).map { _ in Signal<Int, TestError>.pipe() }
        let recorder = Recorder<Int, TestError>()
        SignalProducer<Signal<Int, TestError>, TestError>(pipes.map(\.output)).flatten(.race)
            .start(recorder.observer)
        DispatchQueue.concurrentPerform(iterations: pipes.count) { index in
            for value in 0..<500 { pipes[index].input.send(value: index * 1_000 + value) }
            pipes[index].input.sendCompleted()
        }
        let winner = try #require(recorder.values.first) / 1_000
        #expect(recorder.values == (0..<500).map { winner * 1_000 + $0 })
        #expect(recorder.terminal == .completed)
    }
}
