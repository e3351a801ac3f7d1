import Dispatch
import Testing
@testable import Reactive

@Suite struct DelayOperatorTests {
    @Test func valuesAndCompletionArriveOneIntervalLaterInOrder() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = TimedRecorder<Int, TestError>(scheduler)
        signal.delay(.seconds(2), on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        input.send(value: 2)
        scheduler.advance(by: .seconds(1))
        input.send(value: 3)
        input.sendCompleted()
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .milliseconds(1999))
        #expect(recorder.values == [1, 2])
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
        #expect(recorder.times == [at(2), at(2), at(3), at(3)])
    }

    @Test func aFailureIsSentAtOnceAndDropsTheWaitingValues() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = TimedRecorder<Int, TestError>(scheduler)
        signal.delay(.seconds(5), on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        scheduler.advance(by: .seconds(1))
        input.send(error: TestError(code: 4))
        scheduler.advance()
        #expect(recorder.events == [.failed(TestError(code: 4))])
        #expect(recorder.times == [at(1)])
        scheduler.run()
        #expect(recorder.events == [.failed(TestError(code: 4))])
    }

    @Test func anInterruptionIsSentAtOnce() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        signal.delay(.seconds(5), on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        input.sendInterrupted()
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
    }

    @Test func disposingCancelsTheScheduledWork() {
        let scheduler = TestScheduler()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer([1, 2, 3]).delay(.seconds(1), on: scheduler).start(recorder.observer)
        #expect(!scheduler.isIdle)
        disposable.dispose()
        #expect(scheduler.isIdle)
        scheduler.run()
        #expect(recorder.events == [.interrupted])
    }

    @Test func manyValuesKeepOneScheduledActionAtATime() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        signal.delay(.seconds(1), on: scheduler).observe(recorder.observer)
        for value in 0..<1000 {
            input.send(value: value)
            scheduler.advance(by: .milliseconds(1))
        }
        #expect(scheduler.pendingActionCount == 1)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == Array(0..<1000))
    }

    @Test func onAQueueSchedulerValuesArriveInOrderNoEarlierThanTheInterval() {
        let scheduler = QueueScheduler(label: "test.delay")
        let started = scheduler.now
        let firstArrival = Recorder<SchedulerTime, Never>()
        let recorder = Recorder<Int, Never>()
        let done = DispatchSemaphore(value: 0)
        SignalProducer(0..<200).delay(.milliseconds(5), on: scheduler).start { event in
            if recorder.events.isEmpty { firstArrival.observer.send(value: scheduler.now) }
            recorder.observer.send(event)
            if event.isTerminating { done.signal() }
        }
        #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(recorder.values == Array(0..<200))
        #expect(recorder.terminal == .completed)
        #expect(firstArrival.values.allSatisfy { $0 >= started + .milliseconds(5) })
    }
}
