import Testing
@testable import Reactive

@Suite struct ThrottleOperatorTests {
    @Test func theFirstValueGoesOutAtOnceAndTheLatestWinsEachInterval() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        signal.throttle(.seconds(1), on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        scheduler.advance()
        #expect(recorder.values == [1])
        scheduler.advance(by: .milliseconds(200))
        input.send(value: 2)
        input.send(value: 3)
        scheduler.advance(by: .milliseconds(500))
        #expect(recorder.values == [1])
        scheduler.advance(by: .milliseconds(300))
        #expect(recorder.values == [1, 3])
        #expect(recorder.times == [at(0), at(1)])
    }

    @Test func aValueAfterAQuietIntervalGoesOutAtOnce() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        signal.throttle(.seconds(1), on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        scheduler.advance(by: .seconds(3))
        input.send(value: 2)
        scheduler.advance()
        #expect(recorder.values == [1, 2])
        #expect(recorder.times == [at(0), at(3)])
    }

    @Test func completionIsSentOnTheSchedulerAndDropsTheHeldValue() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        signal.throttle(.seconds(1), on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        scheduler.advance()
        input.send(value: 2)
        input.sendCompleted()
        #expect(recorder.events == [.value(1)])
        scheduler.run()
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test func failureIsSentOnTheScheduler() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        signal.throttle(.seconds(1), on: scheduler).observe(recorder.observer)
        input.send(error: TestError())
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.events == [.failed(TestError())])
    }

    @Test func disposingCancelsTheHeldValue() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = signal.throttle(.seconds(1), on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        scheduler.advance()
        input.send(value: 2)
        disposable.dispose()
        #expect(scheduler.isIdle)
        scheduler.run()
        #expect(recorder.values == [1])
    }

    @Test func valuesHeldBackShareOneScheduledSend() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        signal.throttle(.seconds(1), on: scheduler).observe(recorder.observer)
        input.send(value: 0)
        scheduler.advance()
        for value in 1...500 { input.send(value: value) }
        #expect(scheduler.pendingActionCount == 1)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [0, 500])
    }
}
