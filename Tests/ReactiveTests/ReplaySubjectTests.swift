import Testing
@testable import Reactive

@Suite struct ReplaySubjectTests {
    @Test func anUnlimitedSubjectReplaysEveryValueThenGoesLive() {
        let subject = ReplaySubject<Int, TestError>(capacity: .unlimited)
        for value in 1...5 { subject.send(value: value) }
        let late = Recorder<Int, TestError>()
        subject.observe(late.observer)
        subject.send(value: 6)
        #expect(late.values == [1, 2, 3, 4, 5, 6])
    }

    @Test func aBoundedSubjectReplaysItsLastValuesThenTheTerminalEvent() {
        let subject = ReplaySubject<Int, TestError>(capacity: .last(3))
        for value in 1...5 { subject.send(value: value) }
        subject.sendCompleted()
        let late = Recorder<Int, TestError>()
        subject.observe(late.observer)
        #expect(late.events == [.value(3), .value(4), .value(5), .completed])
    }

    @Test func aReplayLastSubjectReplaysOnlyTheLatestValueAndItsFailure() {
        let subject = ReplaySubject<String, TestError>(capacity: .last)
        subject.send(value: "a")
        subject.send(value: "b")
        subject.send(error: TestError(code: 9))
        let late = Recorder<String, TestError>()
        subject.observe(late.observer)
        #expect(late.events == [.value("b"), .failed(TestError(code: 9))])
    }

    @Test func anInterruptionIsReplayedToo() {
        let subject = ReplaySubject<Int, Never>(capacity: 2)
        subject.send(value: 1)
        subject.sendInterrupted()
        let late = Recorder<Int, Never>()
        subject.producer.start(late.observer)
        #expect(late.events == [.value(1), .interrupted])
    }

    @Test func aSubjectWithFewerValuesThanItsCapacityReplaysThemAll() {
        let subject = ReplaySubject<Int, Never>(capacity: 10)
        subject.send(value: 1)
        subject.send(value: 2)
        let late = Recorder<Int, Never>()
        subject.observe(late.observer)
        #expect(late.values == [1, 2])
    }

    @Test func theBufferNeverHoldsMoreThanItsCapacity() {
        let subject = ReplaySubject<Int, Never>(capacity: 4)
        for value in 0..<10_000 {
            subject.send(value: value)
            if value % 1000 == 0 { #expect((subject.core.replayBuffer?.count ?? 0) <= 4) }
        }
        let late = Recorder<Int, Never>()
        subject.observe(late.observer)
        #expect(late.values == [9996, 9997, 9998, 9999])
        #expect(subject.core.replayBuffer?.count == 4)
    }

    @Test func everyLateObserverGetsTheSameReplay() {
        let subject = ReplaySubject<Int, Never>(capacity: 2)
        for value in 1...3 { subject.send(value: value) }
        let first = Recorder<Int, Never>()
        let second = Recorder<Int, Never>()
        subject.observe(first.observer)
        subject.observe(second.observer)
        #expect(first.values == [2, 3])
        #expect(second.values == [2, 3])
    }

    @Test func anObserverThatDisposesItselfDuringItsReplayReceivesNoLiveEvents() {
        // Its disposable only exists once `observe` returns, that is after the replay, so the replay
        // runs to its end; nothing live follows.
        let subject = ReplaySubject<Int, Never>(capacity: .unlimited)
        for value in 1...5 { subject.send(value: value) }
        let received = Recorder<Int, Never>()
        let disposable = SerialDisposable()
        disposable.inner = subject.observeValues { value in
            received.observer.send(value: value)
            if value == 2 { disposable.dispose() }
        }
        subject.send(value: 6)
        #expect(received.values == [1, 2, 3, 4, 5])
    }

    @Test func anotherObserverDisposedDuringAReplayMissesTheLiveEvent() {
        let subject = ReplaySubject<Int, Never>(capacity: .unlimited)
        subject.send(value: 1)
        let other = Recorder<Int, Never>()
        let otherDisposable = subject.observe(other.observer)
        subject.observeValues { _ in otherDisposable.dispose() }
        subject.send(value: 2)
        #expect(other.values == [1])
    }

    @Test func anObserverThatEndsItsLifetimeDuringItsReplayStopsTheReplay() {
        let subject = ReplaySubject<Int, Never>(capacity: .unlimited)
        for value in 1...5 { subject.send(value: value) }
        let received = Recorder<Int, Never>()
        let (lifetime, token) = Lifetime.make()
        subject.signal.observe(Observer(value: { value in
            received.observer.send(value: value)
            if value == 2 { token.end() }
        }), during: lifetime)
        subject.send(value: 6)
        #expect(received.values == [1, 2])
    }

    @Test func aProducerStartThatEndsEarlyStopsReplayingAtOnce() {
        let subject = ReplaySubject<Int, Never>(capacity: .unlimited)
        for value in 1...1_000 { subject.send(value: value) }
        let replayed = Counter()
        let received = Recorder<Int, Never>()
        subject.producer.on(value: { _ in replayed.increment() }).take(first: 2).start(received.observer)
        #expect(received.events == [.value(1), .value(2), .completed])
        #expect(replayed.value == 2)
    }

    @Test func operatorsOnTheProducerReplayForEveryStart() {
        let subject = ReplaySubject<Int, Never>(capacity: 3)
        for value in 1...5 { subject.send(value: value) }
        let first = Recorder<Int, Never>()
        let second = Recorder<Int, Never>()
        subject.producer.map { $0 * 10 }.start(first.observer)
        subject.producer.map { $0 * 10 }.start(second.observer)
        subject.send(value: 6)
        #expect(first.values == [30, 40, 50, 60])
        #expect(second.values == [30, 40, 50, 60])
    }
}
