import Testing
@testable import Reactive

@Suite struct TimeoutOperatorTests {
    @Test func aSignalThatDoesNotTerminateInTimeFailsWithTheGivenError() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = TimedRecorder<Int, TestError>(scheduler)
        signal.timeout(after: .seconds(2), raising: TestError(code: 408), on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        #expect(recorder.values == [1])
        scheduler.advance(by: .seconds(2))
        input.send(value: 2)
        #expect(recorder.events == [.value(1), .failed(TestError(code: 408))])
        #expect(recorder.times == [at(0), at(2)])
    }

    @Test func completingInTimeCancelsTheTimer() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        signal.timeout(after: .seconds(2), raising: TestError(), on: scheduler).observe(recorder.observer)
        scheduler.advance(by: .seconds(1))
        input.sendCompleted()
        #expect(scheduler.isIdle)
        scheduler.advance(by: .seconds(5))
        #expect(recorder.events == [.completed])
    }

    @Test func anEarlierFailurePassesThrough() {
        let scheduler = TestScheduler()
        let recorder = Recorder<Int, TestError>()
        SignalProducer<Int, TestError>(error: TestError(code: 1))
            .timeout(after: .seconds(2), raising: TestError(code: 408), on: scheduler)
            .start(recorder.observer)
        #expect(recorder.events == [.failed(TestError(code: 1))])
        #expect(scheduler.isIdle)
    }

    @Test func disposingTheStartCancelsTheTimer() {
        let scheduler = TestScheduler()
        let recorder = Recorder<Int, TestError>()
        let disposable = SignalProducer<Int, TestError>.never
            .timeout(after: .seconds(2), raising: TestError(), on: scheduler)
            .start(recorder.observer)
        #expect(scheduler.pendingActionCount == 1)
        disposable.dispose()
        #expect(scheduler.isIdle)
        #expect(recorder.events == [.interrupted])
    }

    @Test func theProducerTimerStartsWithEachStart() {
        let scheduler = TestScheduler()
        let producer = SignalProducer<Int, TestError>.never
            .timeout(after: .seconds(2), raising: TestError(), on: scheduler)
        scheduler.advance(by: .seconds(5))
        let recorder = TimedRecorder<Int, TestError>(scheduler)
        producer.start(recorder.observer)
        scheduler.advance(by: .seconds(2))
        #expect(recorder.times == [at(7)])
    }

    @Test func aProducerThatCannotFailCanTimeOutWithAnError() {
        let scheduler = TestScheduler()
        let recorder = Recorder<Int, TestError>()
        SignalProducer<Int, Never> { observer, _ in observer.send(value: 1) }
            .timeout(after: .seconds(1), raising: TestError(code: 408), on: scheduler)
            .start(recorder.observer)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.value(1), .failed(TestError(code: 408))])
    }

    @Test func aProducerThatCannotFailAndCompletesInTimeCompletes() {
        let scheduler = TestScheduler()
        let recorder = Recorder<Int, TestError>()
        SignalProducer<Int, Never>(value: 2)
            .timeout(after: .seconds(1), raising: TestError(), on: scheduler)
            .start(recorder.observer)
        #expect(scheduler.isIdle)
        #expect(recorder.events == [.value(2), .completed])
    }
}
