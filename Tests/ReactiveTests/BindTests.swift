import Testing
@testable import Reactive

/// `bind` is RAC's `-bind:`: a binding function made per start, which may keep state and stop early.
@Suite struct BindTests {
    @Test func eachStartMakesItsOwnBindingFunctionSoStartsShareNoState() {
        let made = Counter()
        let producer = SignalProducer<Int, Never>([10, 20]).bind {
            made.increment()
            var calls = 0
            return { value, _ in
                calls += 1
                return SignalProducer(value: value + calls)
            }
        }
        let first = Recorder<Int, Never>(), second = Recorder<Int, Never>()
        producer.start(first.observer)
        producer.start(second.observer)
        #expect(first.events == [.value(11), .value(22), .completed])
        #expect(second.events == [.value(11), .value(22), .completed])
        #expect(made.value == 2)
    }

    @Test func settingStopStartsTheLastProducerInterruptsTheSourceAndCompletesWhenTheReturnedOnesDo() {
        let outer = IntProbe(), first = IntProbe(), second = IntProbe()
        let calls = Counter()
        let recorder = Recorder<Int, TestError>()
        outer.producer.bind {
            { value, stop in
                calls.increment()
                stop = value == 2
                return value == 1 ? first.producer : second.producer
            }
        }.start(recorder.observer)
        outer.observer.send(value: 1)
        outer.observer.send(value: 2)
        #expect(outer.hasEnded)
        #expect(second.startCount == 1)
        outer.observer.send(value: 3)
        #expect(calls.value == 2)
        first.observer.send(value: 10)
        first.observer.sendCompleted()
        #expect(recorder.events == [.value(10)])
        second.observer.send(value: 20)
        second.observer.sendCompleted()
        #expect(recorder.events == [.value(10), .value(20), .completed])
    }

    @Test func returningNilStopsTheSourceAndCompletesWhenTheRunningProducersComplete() {
        let outer = IntProbe(), inner = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.bind { { value, _ in value == 1 ? inner.producer : nil } }.start(recorder.observer)
        outer.observer.send(value: 1)
        outer.observer.send(value: 2)
        #expect(outer.hasEnded)
        #expect(recorder.events.isEmpty)
        inner.observer.send(value: 7)
        inner.observer.sendCompleted()
        #expect(recorder.events == [.value(7), .completed])
    }

    @Test func returningNilWithNothingRunningCompletesAtOnce() {
        let recorder = Recorder<Int, Never>()
        SignalProducer<Int, Never>([1, 2, 3]).bind { { value, _ in value < 2 ? SignalProducer(value: value) : nil } }
            .start(recorder.observer)
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test func aSourceFailureFailsTheResultAndDisposesTheRunningProducers() {
        let outer = IntProbe(), inner = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.bind { { _, _ in inner.producer } }.start(recorder.observer)
        outer.observer.send(value: 1)
        outer.observer.send(error: TestError(code: 3))
        #expect(recorder.events == [.failed(TestError(code: 3))])
        #expect(inner.hasEnded)
    }

    @Test func aReturnedProducerFailingFailsTheResultAndStopsTheSource() {
        let outer = IntProbe(), inner = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.bind { { _, _ in inner.producer } }.start(recorder.observer)
        outer.observer.send(value: 1)
        inner.observer.send(error: TestError(code: 4))
        #expect(recorder.events == [.failed(TestError(code: 4))])
        #expect(outer.hasEnded)
    }

    @Test func disposingTheStartInterruptsTheResultTheSourceAndEveryReturnedProducer() {
        let outer = IntProbe(), inner = IntProbe()
        let recorder = Recorder<Int, TestError>()
        let disposable = outer.producer.bind { { _, _ in inner.producer } }.start(recorder.observer)
        outer.observer.send(value: 1)
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
        #expect(outer.hasEnded)
        #expect(inner.hasEnded)
    }

    @Test func aReturnedProducerInterruptedInterruptsTheResult() {
        let outer = IntProbe(), inner = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.bind { { _, _ in inner.producer } }.start(recorder.observer)
        outer.observer.send(value: 1)
        inner.observer.sendInterrupted()
        #expect(recorder.events == [.interrupted])
        #expect(outer.hasEnded)
    }

    @Test func onASignalTheBindingFunctionIsMadeOnceWhenTheOperatorIsApplied() {
        let made = Counter()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = Recorder<Int, Never>()
        signal.bind {
            made.increment()
            var total = 0
            return { value, stop in
                total += value
                stop = total > 10
                return SignalProducer(value: total)
            }
        }.observe(recorder.observer)
        #expect(made.value == 1)
        input.send(value: 4)
        input.send(value: 8)
        input.send(value: 1)
        #expect(recorder.events == [.value(4), .value(12), .completed])
    }
}
