import Testing
@testable import Reactive

@Suite struct ReduceOperatorTests {
    typealias Harness = BasicOperatorHarness

    @Test func sendsTheResultOnlyWhenTheSourceCompletes() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        signal.reduce(100, -).observe(recorder.observer)
        for value in 1...4 { input.send(value: value) }
        #expect(recorder.events.isEmpty)
        input.sendCompleted()
        #expect(recorder.events == [.value(90), .completed])
    }

    @Test func sendsTheInitialValueWhenNoValueCame() {
        let events = Harness.events(of: { $0.reduce(5, +) }, after: [], .completed)
        #expect(events == [.value(5), .completed])
    }

    @Test func reduceIntoFoldsInPlace() {
        let events = Harness.events(of: { $0.reduce(into: [String]()) { $0.append("\($1)") } }, after: [1, 2], .completed)
        #expect(events == [.value(["1", "2"]), .completed])
    }

    @Test(arguments: [Event<Int, TestError>.failed(TestError(code: 4)), .interrupted])
    func aFailureOrInterruptionPassesThroughWithoutAResult(terminal: Event<Int, TestError>) {
        #expect(Harness.events(of: { $0.reduce(0, +) }, after: [1, 2], terminal) == [terminal])
        #expect(Harness.events(of: { $0.reduce(into: 0) { $0 += $1 } }, after: [1, 2], terminal) == [terminal])
    }

    @Test func aProducerReducesEachStartFromTheInitialValue() {
        let recorder = Recorder<Int, TestError>()
        let producer = Harness.countingProducer(upTo: 4).producer.reduce(0, +)
        producer.start(recorder.observer)
        producer.start(recorder.observer)
        #expect(recorder.events == [.value(10), .completed, .value(10), .completed])

        let counts = Recorder<[Int: Int], TestError>()
        Harness.countingProducer(upTo: 5).producer.reduce(into: [:]) { $0[$1 % 2, default: 0] += 1 }
            .start(counts.observer)
        #expect(counts.events == [.value([0: 2, 1: 3]), .completed])
    }
}
