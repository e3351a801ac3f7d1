import Testing
@testable import Reactive

@Suite struct CollectEveryOperatorTests {
    @Test func valuesAreGatheredPerIntervalIncludingEmptyIntervals() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = TimedRecorder<[Int], Never>(scheduler)
        signal.collect(every: .seconds(1), on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        input.send(value: 2)
        scheduler.advance(by: .seconds(1))
        scheduler.advance(by: .seconds(1))
        input.send(value: 3)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [[1, 2], [], [3]])
        #expect(recorder.times == [at(1), at(2), at(3)])
    }

    @Test func emptyIntervalsCanBeSkipped() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<[Int], Never>()
        signal.collect(every: .seconds(1), on: scheduler, skipEmpty: true).observe(recorder.observer)
        scheduler.advance(by: .seconds(2))
        input.send(value: 5)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [[5]])
    }

    @Test func completionDropsTheUnfinishedIntervalByDefault() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<[Int], Never>()
        signal.collect(every: .seconds(1), on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        input.sendCompleted()
        scheduler.advance()
        #expect(recorder.events == [.completed])
        #expect(scheduler.isIdle)
    }

    @Test func completionCanSendTheUnfinishedIntervalWhenItEnds() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = TimedRecorder<[Int], Never>(scheduler)
        signal.collect(every: .seconds(1), on: scheduler, discardWhenCompleted: false).observe(recorder.observer)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(400))
        input.sendCompleted()
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .milliseconds(600))
        #expect(recorder.events == [.value([1]), .completed])
        #expect(recorder.times == [at(1), at(1)])
        #expect(scheduler.isIdle)
    }

    @Test func failureIsSentAtOnceAndDropsTheUnfinishedInterval() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<[Int], TestError>()
        signal.collect(every: .seconds(1), on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        input.send(error: TestError())
        scheduler.advance()
        #expect(recorder.events == [.failed(TestError())])
        #expect(scheduler.isIdle)
    }

    @Test func disposingStopsTheTimer() {
        let scheduler = TestScheduler()
        let recorder = Recorder<[Int], Never>()
        let disposable = SignalProducer<Int, Never>.never
            .collect(every: .seconds(1), on: scheduler)
            .start(recorder.observer)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [[]])
        disposable.dispose()
        #expect(recorder.events == [.value([])])
        scheduler.advance()
        #expect(recorder.events == [.value([]), .interrupted])
        #expect(scheduler.isIdle)
    }
}
