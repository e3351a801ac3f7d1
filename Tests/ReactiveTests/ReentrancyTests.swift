import Testing
@testable import Reactive

/// The reentrancy policy, the same for every hot source: work an observer asks for from inside its
/// callback (a send, an observation, a disposal) runs after the current event has reached every
/// observer, in the order it was asked for; a disposed observer receives nothing more, not even the
/// rest of the event being delivered; nothing deadlocks.
@Suite struct ReentrancyTests {
    @Test(arguments: HubKind.allCases)
    func aValueSentInsideACallbackReachesEveryoneAfterTheCurrentOne(kind: HubKind) {
        let hub = kind.make()
        let log = Recorder<String, Never>()
        hub.observe { value in
            log.observer.send(value: "a\(value)")
            if value == 1 {
                hub.send(2)
                hub.send(3)
            }
        }
        hub.observe { value in log.observer.send(value: "b\(value)") }
        #expect(completesInTime { hub.send(1) })
        #expect(log.values == ["a1", "b1", "a2", "b2", "a3", "b3"])
    }

    @Test(arguments: HubKind.allCases)
    func anObserverAttachedInsideACallbackStartsWithTheNextValue(kind: HubKind) {
        let hub = kind.make()
        let late = Recorder<Int, Never>()
        let attached = Counter()
        hub.observe { _ in
            guard attached.value == 0 else { return }
            attached.increment()
            hub.observe { late.observer.send(value: $0) }
        }
        #expect(completesInTime {
            hub.send(1)
            hub.send(2)
        })
        #expect(late.values == (kind.replaysEverything ? [1, 2] : [2]))
    }

    @Test(arguments: HubKind.allCases)
    func anObserverThatDisposesItselfInsideACallbackReceivesNothingMore(kind: HubKind) {
        let hub = kind.make()
        let received = Recorder<Int, Never>()
        let disposable = SerialDisposable()
        disposable.inner = hub.observe { value in
            received.observer.send(value: value)
            disposable.dispose()
            hub.send(value + 1)
        }
        #expect(completesInTime {
            hub.send(1)
            hub.send(10)
        })
        #expect(received.values == [1])
    }

    @Test(arguments: HubKind.allCases)
    func anObserverDisposedByAnotherInsideACallbackMissesEvenTheCurrentValue(kind: HubKind) {
        let hub = kind.make()
        let victim = Recorder<Int, Never>()
        let victimDisposable = SerialDisposable()
        hub.observe { value in if value == 2 { victimDisposable.dispose() } }
        victimDisposable.inner = hub.observe { victim.observer.send(value: $0) }
        #expect(completesInTime {
            hub.send(1)
            hub.send(2)
            hub.send(3)
        })
        #expect(victim.values == [1])
    }

    @Test func readingAndWritingAPropertyInsideItsCallbackDoesNotDeadlock() {
        let property = MutableProperty(0)
        let seen = Recorder<Int, Never>()
        property.signal.observeValues { value in
            seen.observer.send(value: property.value)
            if value < 3 { property.modify { $0 += 1 } }
        }
        #expect(completesInTime { property.value = 1 })
        #expect(property.value == 3)
        #expect(seen.values == [1, 2, 3])
    }

    @Test func disposingTheConnectionInsideACallbackStopsTheSource() {
        let network = FakeNetwork()
        let connection = network.request().publish()
        let received = Recorder<String, TestError>()
        let connected = SerialDisposable()
        connection.signal.observe { event in
            received.observer.send(event)
            connected.dispose()
        }
        connected.inner = connection.connect()
        #expect(completesInTime {
            network.emit("one")
            network.emit("two")
        })
        #expect(received.values == ["one"])
        #expect(network.cancellations.value == 1)
    }

    @Test func connectingInsideACallbackOfTheSubjectDoesNotDeadlock() {
        let network = FakeNetwork()
        let connection = network.request(responses: ["r"]).publish()
        let first = connection.connect()
        let received = Recorder<String, TestError>()
        connection.signal.observe { event in
            received.observer.send(event)
            _ = connection.connect()
        }
        #expect(completesInTime {
            first.dispose()
            _ = connection.connect()
            network.emit("x")
        })
        #expect(network.requests.value == 2)
        #expect(received.values == ["r", "x"])
    }
}
