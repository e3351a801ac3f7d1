import Testing
@testable import Reactive

@Suite struct RepeatOperatorTests {
    @Test func startsTheProducerCountTimesInARowAndCompletesAfterTheLast() {
        let starts = Counter()
        let producer = IntProducer { observer, _ in
            starts.increment()
            observer.send(value: starts.value)
            observer.sendCompleted()
        }
        let recorder = Recorder<Int, TestError>()
        producer.repeat(3).start(recorder.observer)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
    }

    @Test func eachStartWaitsForThePreviousOneToComplete() {
        let probe = IntProbe()
        let recorder = Recorder<Int, TestError>()
        probe.producer.repeat(2).start(recorder.observer)
        #expect(probe.startCount == 1)
        probe.observer.send(value: 1)
        probe.observer.sendCompleted()
        #expect(probe.startCount == 2)
        probe.observer.sendCompleted()
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test func aCountOfZeroCompletesWithoutStarting() {
        let probe = IntProbe()
        let recorder = Recorder<Int, TestError>()
        probe.producer.repeat(0).start(recorder.observer)
        #expect(probe.startCount == 0)
        #expect(recorder.events == [.completed])
    }

    @Test func aFailureOrInterruptionEndsTheRepetition() {
        let probe = IntProbe()
        let failed = Recorder<Int, TestError>()
        probe.producer.repeat(5).start(failed.observer)
        probe.observer.send(error: TestError(code: 3))
        #expect(probe.startCount == 1)
        #expect(failed.events == [.failed(TestError(code: 3))])

        let interrupted = Recorder<Int, TestError>()
        probe.producer.repeat(5).start(interrupted.observer)
        probe.observer.sendInterrupted()
        #expect(probe.startCount == 2)
        #expect(interrupted.events == [.interrupted])
    }

    @Test func disposingTheResultEndsTheRunningStartAndStopsRepeating() {
        let probe = IntProbe()
        let disposable = probe.producer.repeat(5).start()
        probe.observer.sendCompleted()
        disposable.dispose()
        #expect(probe.startCount == 2)
        #expect(probe.allEnded)
    }

    @Test func repeatingASynchronousProducerAHundredThousandTimesDoesNotGrowTheStack() {
        let values = Counter()
        let completed = Counter()
        SignalProducer<Int, Never>(value: 1).repeat(100_000)
            .start(Observer(value: { _ in values.increment() }, completed: completed.increment))
        #expect(values.value == 100_000)
        #expect(completed.value == 1)
    }
}
