import Testing
@testable import Reactive

@Suite struct ConcatOperatorTests {
    @Test func concatSendsTheSecondProducersValuesAfterTheFirstCompleted() {
        let first = IntProbe()
        let recorder = Recorder<Int, TestError>()
        first.producer.concat(IntProducer(values: 3, 4)).concat(value: 5).start(recorder.observer)
        first.observer.send(value: 1)
        #expect(recorder.values == [1])
        first.observer.sendCompleted()
        #expect(recorder.events == [.value(1), .value(3), .value(4), .value(5), .completed])
    }

    @Test func concatFailsWithoutStartingTheRestWhenAProducerFails() {
        let rest = IntProbe()
        let recorder = Recorder<Int, TestError>()
        SignalProducer.concat(IntProducer(error: TestError(code: 2)), rest.producer).start(recorder.observer)
        #expect(recorder.events == [.failed(TestError(code: 2))])
        #expect(rest.startCount == 0)
    }

    @Test func disposingAConcatEndsTheRunningProducer() {
        let first = IntProbe(), second = IntProbe()
        let disposable = SignalProducer.concat([first.producer, second.producer]).start()
        disposable.dispose()
        #expect(first.hasEnded)
        #expect(second.startCount == 0)
    }

    @Test func concatOfAHundredThousandSynchronousProducersDoesNotGrowTheStack() {
        let head = IntProbe()
        let count = Counter()
        let completed = Counter()
        SignalProducer.concat([head.producer] + (0..<100_000).map { IntProducer(value: $0) })
            .start(Observer(value: { _ in count.increment() }, completed: completed.increment))
        // All of them wait behind the head, so its completion starts every one of them in turn.
        head.observer.sendCompleted()
        #expect(count.value == 100_000)
        #expect(completed.value == 1)
    }

    @Test func prefixValueSendsTheValueBeforeTheProducersValues() {
        let recorder = Recorder<Int, TestError>()
        IntProducer(values: 2, 3).prefix(value: 1).start(recorder.observer)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
    }

    @Test func prefixStartsTheProducerOnlyAfterThePrefixCompleted() {
        let head = IntProbe(), body = IntProbe()
        let recorder = Recorder<Int, TestError>()
        body.producer.prefix(head.producer).start(recorder.observer)
        #expect(body.startCount == 0)
        head.observer.send(value: 0)
        head.observer.sendCompleted()
        #expect(body.startCount == 1)
        body.observer.send(value: 1)
        #expect(recorder.values == [0, 1])
    }

    @Test func thenIgnoresTheValuesAndStartsTheReplacementAfterCompletion() {
        let first = IntProbe(), replacement = ProducerProbe<String, TestError>()
        let recorder = Recorder<String, TestError>()
        first.producer.then(replacement.producer).start(recorder.observer)
        first.observer.send(value: 1)
        #expect(replacement.startCount == 0)
        first.observer.sendCompleted()
        #expect(replacement.startCount == 1)
        replacement.observer.send(value: "next")
        replacement.observer.sendCompleted()
        #expect(recorder.events == [.value("next"), .completed])
    }

    @Test func thenNeverStartsTheReplacementWhenTheFirstFailsOrIsInterrupted() {
        let replacement = ProducerProbe<String, TestError>()
        let failed = Recorder<String, TestError>()
        IntProducer(error: TestError()).then(replacement.producer).start(failed.observer)
        #expect(failed.events == [.failed(TestError())])

        let first = IntProbe()
        let interrupted = Recorder<String, TestError>()
        first.producer.then(replacement.producer).start(interrupted.observer)
        first.observer.sendInterrupted()
        #expect(interrupted.events == [.interrupted])
        #expect(replacement.startCount == 0)
    }

    @Test func thenOnASignalStartsTheReplacementWhenTheSignalCompletes() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<String, TestError>()
        signal.then(SignalProducer(value: "done")).observe(recorder.observer)
        input.send(value: 1)
        #expect(recorder.events.isEmpty)
        input.sendCompleted()
        #expect(recorder.events == [.value("done"), .completed])
    }
}
