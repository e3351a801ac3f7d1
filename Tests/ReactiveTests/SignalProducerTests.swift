import Testing
@testable import Reactive

@Suite struct SignalProducerTests {
    @Test func aColdProducerStartedThreeTimesRunsItsSideEffectThreeTimes() {
        let requests = Counter()
        let producer = SignalProducer<String, Never> { observer, _ in
            requests.increment()
            observer.send(value: "response")
            observer.sendCompleted()
        }
        let recorder = Recorder<String, Never>()
        for _ in 0..<3 { producer.start(recorder.observer) }
        #expect(requests.value == 3)
        #expect(recorder.values == ["response", "response", "response"])
    }

    @Test func disposingAStartInterruptsItAndEndsItsWork() {
        let cancelled = Counter()
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            observer.send(value: 1)
            lifetime.observeEnded { cancelled.increment() }
        }
        let recorder = Recorder<Int, Never>()
        let disposable = producer.start(recorder.observer)
        #expect(cancelled.value == 0)
        disposable.dispose()
        #expect(cancelled.value == 1)
        #expect(recorder.events == [.value(1), .interrupted])
    }

    @Test func operatorsApplyToEveryStart() {
        let recorder = Recorder<Int, Never>()
        SignalProducer([1, 2, 3, 4]).map { $0 * 10 }.filter { $0 > 10 }.scan(0, +).start(recorder.observer)
        #expect(recorder.events == [.value(20), .value(50), .value(90), .completed])
    }

    @Test func factoriesSendWhatTheySay() {
        let value = Recorder<Int, TestError>()
        SignalProducer(value: 7).start(value.observer)
        #expect(value.events == [.value(7), .completed])

        let failure = Recorder<Int, TestError>()
        SignalProducer(error: TestError(code: 3)).start(failure.observer)
        #expect(failure.events == [.failed(TestError(code: 3))])

        let empty = Recorder<Int, TestError>()
        SignalProducer.empty.start(empty.observer)
        #expect(empty.events == [.completed])

        let never = Recorder<Int, TestError>()
        let disposable = SignalProducer.never.start(never.observer)
        #expect(never.events.isEmpty)
        disposable.dispose()
        #expect(never.events == [.interrupted])
    }

    @Test func deferredBuildsItsProducerAnewForEachStart() {
        let builds = Counter()
        let producer = SignalProducer<Int, Never>.deferred {
            builds.increment()
            return SignalProducer(value: builds.value)
        }
        let recorder = Recorder<Int, Never>()
        producer.start(recorder.observer)
        producer.start(recorder.observer)
        #expect(recorder.values == [1, 2])
    }
}
