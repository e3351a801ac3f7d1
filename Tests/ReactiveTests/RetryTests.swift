import Testing
@testable import Reactive

@Suite struct RetryOperatorTests {
    @Test func restartsOnFailureAndSucceedsWhenAnAttemptSucceeds() {
        let attempts = Counter()
        let flaky = IntProducer { observer, _ in
            attempts.increment()
            observer.send(value: attempts.value)
            if attempts.value < 3 { observer.send(error: TestError(code: attempts.value)) } else { observer.sendCompleted() }
        }
        let recorder = Recorder<Int, TestError>()
        flaky.retry(upTo: 5).start(recorder.observer)
        #expect(attempts.value == 3)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
    }

    @Test func sendsTheFailureAfterTheLastRetry() {
        let attempts = Counter()
        let failing = IntProducer { observer, _ in
            attempts.increment()
            observer.send(error: TestError(code: attempts.value))
        }
        let recorder = Recorder<Int, TestError>()
        failing.retry(upTo: 2).start(recorder.observer)
        #expect(attempts.value == 3)
        #expect(recorder.events == [.failed(TestError(code: 3))])
    }

    @Test func zeroRetriesSendsTheFirstFailure() {
        let recorder = Recorder<Int, TestError>()
        IntProducer(error: TestError(code: 1)).retry(upTo: 0).start(recorder.observer)
        #expect(recorder.events == [.failed(TestError(code: 1))])
    }

    @Test func interruptionIsNotRetried() {
        let probe = IntProbe()
        let recorder = Recorder<Int, TestError>()
        probe.producer.retry(upTo: 3).start(recorder.observer)
        probe.observer.sendInterrupted()
        #expect(probe.startCount == 1)
        #expect(recorder.events == [.interrupted])
    }

    @Test func disposingTheResultEndsTheRunningAttempt() {
        let probe = IntProbe()
        let recorder = Recorder<Int, TestError>()
        let disposable = probe.producer.retry(upTo: 3).start(recorder.observer)
        probe.observer.send(error: TestError())
        #expect(probe.startCount == 2)
        disposable.dispose()
        #expect(probe.allEnded)
        #expect(recorder.events == [.interrupted])
    }

    @Test func retryingASynchronousFailureAHundredThousandTimesDoesNotGrowTheStack() {
        let attempts = Counter()
        let recorder = Recorder<Int, TestError>()
        IntProducer { observer, _ in
            attempts.increment()
            observer.send(error: TestError())
        }.retry(upTo: 100_000).start(recorder.observer)
        #expect(attempts.value == 100_001)
        #expect(recorder.events == [.failed(TestError())])
    }
}
