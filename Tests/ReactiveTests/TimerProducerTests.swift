import Testing
@testable import Reactive

@Suite struct TimerProducerTests {
    @Test func aTimerTicksEveryIntervalWithTheSchedulerTime() {
        let scheduler = TestScheduler()
        let recorder = Recorder<SchedulerTime, Never>()
        SignalProducer.timer(interval: .seconds(1), on: scheduler).start(recorder.observer)
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .milliseconds(3500))
        #expect(recorder.events == [.value(at(1)), .value(at(2)), .value(at(3))])
    }

    @Test func eachStartHasItsOwnClock() {
        let scheduler = TestScheduler()
        let timer = SignalProducer.timer(interval: .seconds(2), on: scheduler)
        let first = Recorder<SchedulerTime, Never>()
        timer.start(first.observer)
        scheduler.advance(by: .seconds(1))
        let second = Recorder<SchedulerTime, Never>()
        timer.start(second.observer)
        scheduler.advance(by: .seconds(2))
        #expect(first.values == [at(2)])
        #expect(second.values == [at(3)])
    }

    @Test func disposingStopsTheTicks() {
        let scheduler = TestScheduler()
        let recorder = Recorder<SchedulerTime, Never>()
        let disposable = SignalProducer.timer(interval: .seconds(1), on: scheduler).start(recorder.observer)
        scheduler.advance(by: .seconds(1))
        disposable.dispose()
        #expect(scheduler.isIdle)
        scheduler.advance(by: .seconds(5))
        #expect(recorder.events == [.value(at(1)), .interrupted])
    }
}
