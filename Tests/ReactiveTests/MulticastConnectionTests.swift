import Testing
@testable import Reactive

@Suite struct MulticastConnectionTests {
    @Test func connectStartsTheSourceOnceAndReturnsTheSameDisposableWhileConnected() {
        let network = FakeNetwork()
        let connection = network.request().publish()
        let first = connection.connect()
        let second = connection.connect()
        #expect(network.requests.value == 1)
        #expect(first === second)
    }

    @Test func nothingStartsBeforeConnect() {
        let network = FakeNetwork()
        let connection = network.request(responses: ["a"]).publish()
        let recorder = Recorder<String, TestError>()
        connection.signal.observe(recorder.observer)
        #expect(network.requests.value == 0)
        connection.connect()
        #expect(recorder.values == ["a"])
    }

    @Test func everyObserverSeesTheEventsOfTheOneSharedStart() {
        let network = FakeNetwork()
        let connection = network.request().publish()
        let first = Recorder<String, TestError>()
        let second = Recorder<String, TestError>()
        connection.signal.observe(first.observer)
        connection.producer.start(second.observer)
        connection.connect()
        network.emit("x")
        network.finish()
        #expect(network.requests.value == 1)
        #expect(first.events == [.value("x"), .completed])
        #expect(second.events == [.value("x"), .completed])
    }

    @Test func aFailureOfTheSourceReachesEveryObserver() {
        let connection = SignalProducer<Int, TestError>(error: TestError(code: 7)).publish()
        let recorder = Recorder<Int, TestError>()
        connection.signal.observe(recorder.observer)
        connection.connect()
        #expect(recorder.events == [.failed(TestError(code: 7))])
    }

    @Test func disposingTheConnectionInterruptsTheSourceButLeavesTheSubjectOpen() {
        let network = FakeNetwork()
        let connection = network.request().publish()
        let recorder = Recorder<String, TestError>()
        connection.signal.observe(recorder.observer)
        connection.connect().dispose()
        #expect(network.cancellations.value == 1)
        #expect(network.interruptionsSeen.value == 1)
        #expect(recorder.events.isEmpty)
    }

    @Test func connectingAfterADisconnectStartsTheSourceAgainIntoTheSameSubject() {
        let network = FakeNetwork()
        let connection = network.request().publish()
        let recorder = Recorder<String, TestError>()
        connection.signal.observe(recorder.observer)
        let first = connection.connect()
        network.emit("one")
        first.dispose()
        let second = connection.connect()
        network.emit("two")
        #expect(first !== second)
        #expect(network.requests.value == 2)
        #expect(recorder.values == ["one", "two"])
    }

    @Test func connectingAfterTheSourceTerminatedDoesNotStartItAgain() {
        let starts = Counter()
        let connection = SignalProducer<Int, Never> { observer, _ in
            starts.increment()
            observer.send(value: 1)
            observer.sendCompleted()
        }.publish()
        connection.connect()
        connection.connect()
        let late = Recorder<Int, Never>()
        connection.signal.observe(late.observer)
        #expect(starts.value == 1)
        #expect(late.events == [.completed])
    }

    @Test func anyConformingSubjectCanCarryTheConnection() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let connection = SignalProducer([1, 2, 3]).multicast(subject)
        connection.connect()
        let late = Recorder<Int, Never>()
        connection.signal.observe(late.observer)
        #expect(late.events == [.value(3), .completed])
    }

    // MARK: autoconnect

    @Test func autoconnectConnectsOnTheFirstSubscriberOnly() {
        let network = FakeNetwork()
        let shared = network.request().publish().autoconnect()
        #expect(network.requests.value == 0)
        let first = Recorder<String, TestError>()
        let second = Recorder<String, TestError>()
        shared.start(first.observer)
        shared.start(second.observer)
        network.emit("x")
        #expect(network.requests.value == 1)
        #expect(first.values == ["x"])
        #expect(second.values == ["x"])
    }

    @Test func autoconnectDisconnectsWhenTheLastSubscriberDisposes() {
        let network = FakeNetwork()
        let shared = network.request().publish().autoconnect()
        let first = shared.start()
        let second = shared.start()
        first.dispose()
        #expect(network.cancellations.value == 0)
        second.dispose()
        #expect(network.cancellations.value == 1)
        #expect(network.interruptionsSeen.value == 1)
    }

    @Test func aSubscriberAfterTheDisconnectConnectsAgainAndSeesOnlyNewEventsThroughAPassthroughSubject() {
        let network = FakeNetwork()
        let shared = network.request(responses: ["hello"]).publish().autoconnect()
        let early = Recorder<String, TestError>()
        shared.start(early.observer).dispose()
        let late = Recorder<String, TestError>()
        shared.start(late.observer)
        #expect(network.requests.value == 2)
        #expect(early.events == [.value("hello"), .interrupted])
        #expect(late.values == ["hello"])
    }

    @Test func aLateAutoconnectingSubscriberOfAReplaySubjectSeesTheKeptValuesThenTheNewConnection() {
        let network = FakeNetwork()
        let shared = network.request(responses: ["r"]).multicast(ReplaySubject(capacity: .unlimited)).autoconnect()
        shared.start().dispose()
        let late = Recorder<String, TestError>()
        shared.start(late.observer)
        #expect(late.values == ["r", "r"])
        #expect(network.requests.value == 2)
    }

    @Test func autoconnectNeverDisconnectsAConnectionMadeByConnect() {
        let network = FakeNetwork()
        let connection = network.request().publish()
        connection.connect()
        let shared = connection.autoconnect()
        shared.start().dispose()
        #expect(network.requests.value == 1)
        #expect(network.cancellations.value == 0)
    }

    @Test func aSourceThatCompletesAtOnceLeavesLaterSubscribersWithTheCompletion() {
        let starts = Counter()
        let shared = SignalProducer<Int, Never> { observer, _ in
            starts.increment()
            observer.send(value: 1)
            observer.sendCompleted()
        }.publish().autoconnect()
        let first = Recorder<Int, Never>()
        let second = Recorder<Int, Never>()
        shared.start(first.observer)
        shared.start(second.observer)
        #expect(first.events == [.value(1), .completed])
        #expect(second.events == [.completed])
        #expect(starts.value == 1)
    }
}
