import Testing
@testable import Reactive

@Suite struct DebounceOperatorTests {
    @Test func aValueIsSentAfterAnIntervalOfSilence() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        signal.debounce(.seconds(1), on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(500))
        input.send(value: 2)
        scheduler.advance(by: .milliseconds(999))
        #expect(recorder.values.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.values == [2])
        #expect(recorder.times == [at(1.5)])
        input.send(value: 3)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [2, 3])
    }

    @Test func completionDropsTheWaitingValueByDefault() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        signal.debounce(.seconds(1), on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        input.sendCompleted()
        scheduler.run()
        #expect(recorder.events == [.completed])
    }

    @Test func completionCanSendTheWaitingValueWhenItsIntervalEnds() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        signal.debounce(.seconds(1), on: scheduler, discardWhenCompleted: false).observe(recorder.observer)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(300))
        input.sendCompleted()
        scheduler.advance(by: .milliseconds(699))
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.events == [.value(1), .completed])
        #expect(recorder.times == [at(1), at(1)])
    }

    @Test func completionWithNothingWaitingIsSentAtOnceEvenWhenKeepingValues() {
        let scheduler = TestScheduler()
        let recorder = Recorder<Int, Never>()
        SignalProducer<Int, Never>.empty.debounce(.seconds(1), on: scheduler, discardWhenCompleted: false)
            .start(recorder.observer)
        scheduler.advance()
        #expect(recorder.events == [.completed])
    }

    @Test func failureIsSentAtOnceAndDropsTheWaitingValue() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        signal.debounce(.seconds(1), on: scheduler, discardWhenCompleted: false).observe(recorder.observer)
        input.send(value: 1)
        input.send(error: TestError(code: 9))
        scheduler.advance()
        #expect(recorder.events == [.failed(TestError(code: 9))])
        scheduler.run()
        #expect(recorder.events == [.failed(TestError(code: 9))])
    }

    @Test func disposingCancelsTheWaitingValueAndSendsTheInterruptionOnTheScheduler() {
        let scheduler = TestScheduler()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer<Int, Never> { observer, _ in observer.send(value: 1) }
            .debounce(.seconds(1), on: scheduler)
            .start(recorder.observer)
        disposable.dispose()
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
        #expect(scheduler.isIdle)
    }

    @Test func aBurstOfValuesKeepsOneScheduledCheck() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        signal.debounce(.seconds(1), on: scheduler).observe(recorder.observer)
        for value in 1...100 {
            input.send(value: value)
            scheduler.advance(by: .milliseconds(100))
        }
        #expect(scheduler.pendingActionCount == 1)
        #expect(recorder.values.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [100])
        #expect(recorder.times == [at(10.9)])
    }
}
