import Testing
@testable import Reactive

@Suite(.timeLimit(.minutes(1))) struct AsyncSequenceProducerTests {
    @Test func elementsBecomeValuesAndTheEndOfTheSequenceCompletes() async {
        let producer = SignalProducer(Countdown(start: 3))
        let received = await events(of: producer)
        #expect(received == [.value(3), .value(2), .value(1), .completed])
    }

    @Test func aNonThrowingSequenceMakesAProducerThatCannotFail() async {
        let stream = AsyncStream<Int> { continuation in
            continuation.yield(7)
            continuation.finish()
        }
        let producer: SignalProducer<Int, Never> = SignalProducer(stream)
        #expect(await events(of: producer) == [.value(7), .completed])
    }

    @Test func aThrownErrorBecomesAFailure() async {
        let stream = AsyncThrowingStream<Int, any Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: TestError(code: 3))
        }
        let producer: SignalProducer<Int, any Error> = SignalProducer(stream)
        let received = await events(of: producer)
        #expect(received.count == 2)
        #expect(received.first?.value == 1)
        #expect(received.last?.error as? TestError == TestError(code: 3))
    }

    @Test func eachStartIteratesTheSequenceInItsOwnTask() async {
        let producer = SignalProducer(Countdown(start: 2))
        async let first = events(of: producer)
        async let second = events(of: producer)
        let both = await [first, second]
        #expect(both.allSatisfy { $0 == [.value(2), .value(1), .completed] })
    }

    @Test func disposingTheStartCancelsTheIteratingTask() async {
        let cancelled = AsyncFlag()
        let firstValue = AsyncFlag()
        let stream = AsyncStream<Int> { continuation in
            continuation.onTermination = { termination in
                if case .cancelled = termination { cancelled.fire() }
            }
            continuation.yield(1)
        }
        let recorder = Recorder<Int, Never>()
        let disposable = SignalProducer(stream).start { event in
            recorder.observer.send(event)
            firstValue.fire()
        }
        await firstValue.wait()
        disposable.dispose()
        await cancelled.wait()
        #expect(recorder.events == [.value(1), .interrupted])
    }
}
