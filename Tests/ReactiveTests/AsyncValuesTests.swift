import Testing
@testable import Reactive

@Suite(.timeLimit(.minutes(1))) struct AsyncValuesTests {
    @Test func theValuesOfACompletingProducerArriveInOrderThenTheSequenceEnds() async throws {
        var received: [Int] = []
        for try await value in SignalProducer<Int, TestError>([1, 2, 3]).values {
            received.append(value)
        }
        #expect(received == [1, 2, 3])
    }

    @Test func aFailureIsThrownAsTheProducersError() async {
        let producer = SignalProducer<Int, TestError> { observer, _ in
            observer.send(value: 1)
            observer.send(error: TestError(code: 5))
        }
        var received: [Int] = []
        do {
            for try await value in producer.values { received.append(value) }
            Issue.record("the sequence ended without throwing")
        } catch let error as TestError {
            #expect(error == TestError(code: 5))
        } catch {
            Issue.record("unexpected error \(error)")
        }
        #expect(received == [1])
    }

    @Test func anInterruptionEndsTheSequenceNormally() async throws {
        let producer = SignalProducer<Int, TestError> { observer, _ in
            observer.send(value: 1)
            observer.sendInterrupted()
        }
        var received: [Int] = []
        for try await value in producer.values { received.append(value) }
        #expect(received == [1])
    }

    @Test func aProducerThatCannotFailGivesAStreamThatCannotThrow() async {
        let stream: AsyncStream<Int> = SignalProducer<Int, Never>([4, 5]).values
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [4, 5])
    }

    @Test func cancellingTheConsumingTaskDisposesTheStart() async {
        let ended = AsyncFlag()
        let firstValue = AsyncFlag()
        let producer = SignalProducer<Int, TestError> { observer, lifetime in
            lifetime.observeEnded { ended.fire() }
            observer.send(value: 1)
        }
        let consumer = Task {
            for try await _ in producer.values { firstValue.fire() }
        }
        await firstValue.wait()
        consumer.cancel()
        await ended.wait()
        let result = await consumer.result
        #expect((try? result.get()) != nil)
    }

    @Test func cancellingTheConsumerOfANonThrowingStreamDisposesTheStart() async {
        let ended = AsyncFlag()
        let firstValue = AsyncFlag()
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            lifetime.observeEnded { ended.fire() }
            observer.send(value: 1)
        }
        let consumer = Task {
            for await _ in producer.values { firstValue.fire() }
        }
        await firstValue.wait()
        consumer.cancel()
        await ended.wait()
        _ = await consumer.result
    }

    @Test func droppingTheSequenceDisposesTheStart() async {
        let ended = AsyncFlag()
        let producer = SignalProducer<Int, Never> { _, lifetime in
            lifetime.observeEnded { ended.fire() }
        }
        do { _ = producer.values }
        await ended.wait()
    }

    @Test func aBoundedBufferKeepsOnlyTheNewestValues() async {
        let stream = SignalProducer<Int, Never>(1...10).values(bufferingPolicy: .bufferingNewest(2))
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [9, 10])
    }
}
