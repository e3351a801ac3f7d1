import Testing
@testable import Reactive

@Suite struct CollectOperatorTests {
    typealias Harness = BasicOperatorHarness

    @Test func collectSendsEveryValueAsOneArrayOnCompletion() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<[Int], TestError>()
        signal.collect().observe(recorder.observer)
        for value in 1...3 { input.send(value: value) }
        #expect(recorder.events.isEmpty)
        input.sendCompleted()
        #expect(recorder.events == [.value([1, 2, 3]), .completed])
    }

    @Test func collectSendsAnEmptyArrayWhenNoValueCame() {
        #expect(Harness.events(of: { $0.collect() }, after: [], .completed) == [.value([]), .completed])
    }

    @Test func collectCountSendsFullArraysAsTheyFillAndTheRemainderOnCompletion() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<[Int], TestError>()
        signal.collect(count: 2).observe(recorder.observer)
        for value in 1...5 { input.send(value: value) }
        #expect(recorder.events == [.value([1, 2]), .value([3, 4])])
        input.sendCompleted()
        #expect(recorder.events == [.value([1, 2]), .value([3, 4]), .value([5]), .completed])
    }

    @Test func collectCountSendsNoEmptyRemainder() {
        let events = Harness.events(of: { $0.collect(count: 2) }, after: [1, 2, 3, 4], .completed)
        #expect(events == [.value([1, 2]), .value([3, 4]), .completed])
    }

    @Test func collectCountSendsAnEmptyArrayWhenNoValueCame() {
        #expect(Harness.events(of: { $0.collect(count: 3) }, after: [], .completed) == [.value([]), .completed])
    }

    @Test(arguments: [Event<Int, TestError>.failed(TestError(code: 5)), .interrupted])
    func aFailureOrInterruptionDropsTheValuesCollectedSoFar(terminal: Event<Int, TestError>) {
        let expected = terminal.terminal(as: [Int].self)!
        #expect(Harness.events(of: { $0.collect() }, after: [1, 2, 3], terminal) == [expected])
        #expect(Harness.events(of: { $0.collect(count: 2) }, after: [1, 2, 3], terminal) == [.value([1, 2]), expected])
    }

    @Test func aProducerCollectsEachStartOnItsOwn() {
        let all = Recorder<[Int], TestError>()
        let producer = Harness.countingProducer(upTo: 3).producer.collect()
        producer.start(all.observer)
        producer.start(all.observer)
        #expect(all.events == [.value([1, 2, 3]), .completed, .value([1, 2, 3]), .completed])

        let chunks = Recorder<[Int], TestError>()
        Harness.countingProducer(upTo: 3).producer.collect(count: 2).start(chunks.observer)
        #expect(chunks.events == [.value([1, 2]), .value([3]), .completed])
    }
}
