import Dispatch
import Testing
@testable import Reactive

@Suite struct ObserveOnOperatorTests {
    @Test func eventsArriveOnlyWhenTheSchedulerRunsThem() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        signal.observe(on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        input.send(value: 2)
        input.sendCompleted()
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func failureAndInterruptionHopToo() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        signal.observe(on: scheduler).observe(recorder.observer)
        input.send(error: TestError(code: 7))
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.events == [.failed(TestError(code: 7))])

        let interrupted = Recorder<Int, Never>()
        SignalProducer<Int, Never> { observer, _ in observer.sendInterrupted() }
            .observe(on: scheduler).start(interrupted.observer)
        scheduler.advance()
        #expect(interrupted.events == [.interrupted])
    }

    @Test func nothingIsDeliveredAfterTheObservationIsDisposed() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        let disposable = signal.observe(on: scheduler).observe(recorder.observer)
        input.send(value: 1)
        disposable.dispose()
        scheduler.advance()
        #expect(recorder.events.isEmpty)
    }

    @Test func aDisposedProducerStartIsInterruptedAndGetsNoWaitingValue() {
        let scheduler = TestScheduler()
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer([1, 2]).observe(on: scheduler).start(recorder.observer)
        disposable.dispose()
        scheduler.advance()
        #expect(recorder.events == [.interrupted])
    }

    @Test func onAQueueSchedulerEveryEventIsDeliveredOnTheQueueInOrder() {
        let scheduler = QueueScheduler(label: "test.observe-on")
        let key = DispatchSpecificKey<Int>()
        scheduler.queue.setSpecific(key: key, value: 1)
        let onQueue = Counter()
        let recorder = Recorder<Int, Never>()
        let done = DispatchSemaphore(value: 0)
        SignalProducer<Int, Never>(0..<1000).observe(on: scheduler).start { event in
            if DispatchQueue.getSpecific(key: key) == 1 { onQueue.increment() }
            recorder.observer.send(event)
            if event.isTerminating { done.signal() }
        }
        #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(recorder.values == Array(0..<1000))
        #expect(recorder.terminal == .completed)
        #expect(onQueue.value == 1001)
    }
}
