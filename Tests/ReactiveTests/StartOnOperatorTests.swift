import Testing
@testable import Reactive

@Suite struct StartOnOperatorTests {
    @Test func theStartHandlerRunsOnlyWhenTheSchedulerRunsIt() {
        let scheduler = TestScheduler()
        let starts = Counter()
        let recorder = Recorder<Int, Never>()
        SignalProducer<Int, Never> { observer, _ in
            starts.increment()
            observer.send(value: 1)
            observer.sendCompleted()
        }
        .start(on: scheduler)
        .start(recorder.observer)
        #expect(starts.value == 0)
        scheduler.advance()
        #expect(starts.value == 1)
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test func disposingBeforeTheSchedulerRunsCancelsTheStart() {
        let scheduler = TestScheduler()
        let starts = Counter()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer<Int, Never> { _, _ in starts.increment() }
            .start(on: scheduler)
            .start(recorder.observer)
        disposable.dispose()
        #expect(scheduler.isIdle)
        scheduler.run()
        #expect(starts.value == 0)
        #expect(recorder.events == [.interrupted])
    }

    @Test func disposingAfterTheStartEndsTheInnerWork() {
        let scheduler = TestScheduler()
        let ended = Counter()
        let disposable = SignalProducer<Int, TestError> { _, lifetime in
            lifetime.observeEnded { ended.increment() }
        }
        .start(on: scheduler)
        .start()
        scheduler.advance()
        #expect(ended.value == 0)
        disposable.dispose()
        #expect(ended.value == 1)
    }

    @Test func aFailureOfTheStartedProducerPassesThrough() {
        let scheduler = TestScheduler()
        let recorder = Recorder<Int, TestError>()
        SignalProducer<Int, TestError>(error: TestError(code: 2)).start(on: scheduler).start(recorder.observer)
        scheduler.advance()
        #expect(recorder.events == [.failed(TestError(code: 2))])
    }
}
