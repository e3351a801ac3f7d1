import Testing
@testable import Reactive

/// The seeds' examples, with the "network request" modelled by `FakeNetwork`.
@Suite struct SignalProducerMulticastTests {
    @Test func aColdRequestStartedThreeTimesIsSentThreeTimes() {
        let network = FakeNetwork()
        let request = network.request(responses: ["200"])
        for _ in 0..<3 { request.start() }
        #expect(network.requests.value == 3)
    }

    @Test func aPublishedRequestIsSentOnceForThreeSubscribers() {
        let network = FakeNetwork()
        let connection = network.request().publish()
        let recorders = (0..<3).map { _ in Recorder<String, TestError>() }
        for recorder in recorders { connection.producer.start(recorder.observer) }
        connection.connect()
        network.emit("200")
        #expect(network.requests.value == 1)
        for recorder in recorders { #expect(recorder.values == ["200"]) }
    }

    @Test func replayStartsAtOnceAndALateSubscriberGetsEveryValue() {
        let network = FakeNetwork()
        let replayed = network.request(responses: ["a", "b"]).replay()
        #expect(network.requests.value == 1)
        network.emit("c")
        let late = Recorder<String, TestError>()
        replayed.start(late.observer)
        network.emit("d")
        #expect(late.values == ["a", "b", "c", "d"])
        #expect(network.requests.value == 1)
    }

    @Test func replayReplaysTheTerminalEventAfterTheValues() {
        let replayed = SignalProducer<Int, TestError> { observer, _ in
            observer.send(value: 1)
            observer.send(error: TestError(code: 2))
        }.replay()
        let late = Recorder<Int, TestError>()
        replayed.start(late.observer)
        #expect(late.events == [.value(1), .failed(TestError(code: 2))])
    }

    @Test func replayLastGivesALateSubscriberOnlyTheLastValue() {
        let network = FakeNetwork()
        let replayed = network.request(responses: ["a", "b", "c"]).replayLast()
        #expect(network.requests.value == 1)
        let late = Recorder<String, TestError>()
        replayed.start(late.observer)
        network.emit("d")
        #expect(late.values == ["c", "d"])
    }

    @Test func disposingAReplaySubscriberOnlyDetachesIt() {
        let network = FakeNetwork()
        let replayed = network.request().replay()
        replayed.start().dispose()
        #expect(network.cancellations.value == 0)
        let later = Recorder<String, TestError>()
        replayed.start(later.observer)
        network.emit("x")
        #expect(later.values == ["x"])
        #expect(network.requests.value == 1)
    }

    @Test func replayLazilyRunsNothingUntilTheFirstSubscription() {
        let network = FakeNetwork()
        let replayed = network.request(responses: ["a"]).replayLazily()
        #expect(network.requests.value == 0)
        let first = Recorder<String, TestError>()
        replayed.start(first.observer)
        #expect(network.requests.value == 1)
        #expect(first.values == ["a"])
        let second = Recorder<String, TestError>()
        replayed.start(second.observer)
        #expect(network.requests.value == 1)
        #expect(second.values == ["a"])
    }

    @Test func replayLazilyKeepsOnlyItsCapacity() {
        let replayed = SignalProducer<Int, Never>([1, 2, 3, 4, 5]).replayLazily(upTo: 2)
        let first = Recorder<Int, Never>()
        replayed.start(first.observer)
        let late = Recorder<Int, Never>()
        replayed.start(late.observer)
        #expect(first.events == [.value(1), .value(2), .value(3), .value(4), .value(5), .completed])
        #expect(late.events == [.value(4), .value(5), .completed])
    }

    @Test func replayLazilyKeepsRunningWhenAllSubscribersLeave() {
        let network = FakeNetwork()
        let replayed = network.request(responses: ["a"]).replayLazily()
        replayed.start().dispose()
        #expect(network.cancellations.value == 0)
        network.emit("b")
        let later = Recorder<String, TestError>()
        replayed.start(later.observer)
        #expect(later.values == ["a", "b"])
        #expect(network.requests.value == 1)
    }

    @Test func replayLazilyInterruptsItsSourceWhenTheProducerAndAllStartsAreGone() {
        let network = FakeNetwork()
        var replayed: SignalProducer<String, TestError>? = network.request().replayLazily()
        let start = replayed!.start()
        replayed = nil
        #expect(network.cancellations.value == 0)
        start.dispose()
        #expect(network.cancellations.value == 1)
        #expect(network.interruptionsSeen.value == 1)
    }

    @Test func replayInterruptsItsSourceWhenTheProducerIsDroppedUnused() {
        let network = FakeNetwork()
        do {
            let replayed = network.request().replay()
            #expect(network.requests.value == 1)
            _ = replayed
        }
        #expect(network.cancellations.value == 1)
    }

    @Test func autoconnectCancelsTheRequestWhenTheLastSubscriberLeaves() {
        let network = FakeNetwork()
        let shared = network.request().publish().autoconnect()
        let subscriptions = (0..<3).map { _ in shared.start() }
        #expect(network.requests.value == 1)
        for subscription in subscriptions.dropLast() { subscription.dispose() }
        #expect(network.cancellations.value == 0)
        subscriptions.last!.dispose()
        #expect(network.cancellations.value == 1)
        #expect(network.interruptionsSeen.value == 1)
    }
}

@Suite struct SignalReplayTests {
    @Test func aReplayedSignalGivesALateSubscriberTheValuesSentSinceReplayWasCalled() {
        let (signal, input) = Signal<Int, Never>.pipe()
        input.send(value: 0)
        let replayed = signal.replay()
        input.send(value: 1)
        input.send(value: 2)
        let late = Recorder<Int, Never>()
        replayed.start(late.observer)
        input.send(value: 3)
        input.sendCompleted()
        #expect(late.events == [.value(1), .value(2), .value(3), .completed])
    }

    @Test func replayLastOfASignalKeepsOnlyTheLatestValue() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let replayed = signal.replayLast()
        input.send(value: 1)
        input.send(value: 2)
        let late = Recorder<Int, Never>()
        replayed.start(late.observer)
        #expect(late.values == [2])
    }

    @Test func aBoundedReplayOfAProducerKeepsItsCapacity() {
        let replayed = SignalProducer<Int, Never>([1, 2, 3, 4]).replay(upTo: 2)
        let late = Recorder<Int, Never>()
        replayed.start(late.observer)
        #expect(late.events == [.value(3), .value(4), .completed])
    }

    @Test func droppingTheReplayOfASignalStopsObservingIt() {
        let (signal, input) = Signal<Int, Never>.pipe()
        weak var weakWitness: Witness?
        do {
            let witness = Witness()
            weakWitness = witness
            let replayed = signal.map { value in withExtendedLifetime(witness) { value } }.replay()
            input.send(value: 1)
            _ = replayed
        }
        #expect(weakWitness == nil)
    }
}
