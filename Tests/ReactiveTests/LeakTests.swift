import Testing
@testable import Reactive

/// Disposed chains release what they captured: each test captures a `Witness` in the closures of a
/// chain, disposes or drops the chain, and checks through a weak reference that the witness is gone.
@Suite struct LeakTests {
    @Test func aDisposedSubjectChainReleasesItsOperatorsAndObserver() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakWitness: Witness?
        var disposable: (any Disposable)?
        do {
            let witness = Witness()
            weakWitness = witness
            disposable = subject.signal
                .map { value in withExtendedLifetime(witness) { value * 2 } }
                .scan(0) { total, value in withExtendedLifetime(witness) { total + value } }
                .observeValues { _ in withExtendedLifetime(witness) {} }
        }
        subject.send(value: 1)
        #expect(weakWitness != nil)
        disposable?.dispose()
        #expect(weakWitness == nil)
    }

    @Test func aDisposedReplaySubjectObserverIsReleased() {
        let subject = ReplaySubject<Int, Never>(capacity: 4)
        subject.send(value: 1)
        weak var weakWitness: Witness?
        var disposable: (any Disposable)?
        do {
            let witness = Witness()
            weakWitness = witness
            disposable = subject.observeValues { _ in withExtendedLifetime(witness) {} }
        }
        #expect(weakWitness != nil)
        disposable?.dispose()
        #expect(weakWitness == nil)
    }

    @Test func aDisposedProducerStartReleasesItsHandlerWorkAndOperators() {
        weak var weakWitness: Witness?
        var disposable: (any Disposable)?
        do {
            let witness = Witness()
            weakWitness = witness
            let producer = SignalProducer<Int, Never> { observer, lifetime in
                lifetime.observeEnded { withExtendedLifetime(witness) {} }
                observer.send(value: 1)
            }
            disposable = producer
                .map { value in withExtendedLifetime(witness) { value } }
                .filter { _ in withExtendedLifetime(witness) { true } }
                .start { _ in withExtendedLifetime(witness) {} }
        }
        #expect(weakWitness != nil)
        disposable?.dispose()
        #expect(weakWitness == nil)
    }

    @Test func aDisconnectedConnectionReleasesTheSourceAndADisposedObserverItsClosure() {
        weak var weakSourceWitness: Witness?
        weak var weakObserverWitness: Witness?
        weak var weakConnection: MulticastConnection<Int, Never>?
        var connected: (any Disposable)?
        var observation: (any Disposable)?
        do {
            let sourceWitness = Witness()
            let observerWitness = Witness()
            weakSourceWitness = sourceWitness
            weakObserverWitness = observerWitness
            let connection = SignalProducer<Int, Never> { _, lifetime in
                lifetime.observeEnded { withExtendedLifetime(sourceWitness) {} }
            }.publish()
            weakConnection = connection
            observation = connection.signal.observeValues { _ in withExtendedLifetime(observerWitness) {} }
            connected = connection.connect()
        }
        #expect(weakSourceWitness != nil)
        connected?.dispose()
        connected = nil
        #expect(weakConnection == nil)
        #expect(weakSourceWitness == nil)
        // Disconnecting leaves the subject open, so its observers stay until they are disposed.
        #expect(weakObserverWitness != nil)
        observation?.dispose()
        #expect(weakObserverWitness == nil)
    }

    @Test func autoconnectedSubscribersReleaseEverythingWhenTheLastLeaves() {
        weak var weakWitness: Witness?
        var subscriptions: [any Disposable] = []
        do {
            let witness = Witness()
            weakWitness = witness
            let shared = SignalProducer<Int, Never> { _, lifetime in
                lifetime.observeEnded { withExtendedLifetime(witness) {} }
            }.publish().autoconnect()
            subscriptions = (0..<3).map { _ in shared.startWithValues { _ in withExtendedLifetime(witness) {} } }
        }
        #expect(weakWitness != nil)
        for subscription in subscriptions { subscription.dispose() }
        subscriptions = []
        #expect(weakWitness == nil)
    }

    @Test func aReplayedProducerReleasesItsSourceWhenItAndItsStartsAreGone() {
        weak var weakWitness: Witness?
        var start: (any Disposable)?
        do {
            let witness = Witness()
            weakWitness = witness
            let replayed = SignalProducer<Int, Never> { observer, lifetime in
                lifetime.observeEnded { withExtendedLifetime(witness) {} }
                observer.send(value: 1)
            }.replayLazily(upTo: 1)
            start = replayed.startWithValues { _ in withExtendedLifetime(witness) {} }
        }
        #expect(weakWitness != nil)
        start?.dispose()
        start = nil
        #expect(weakWitness == nil)
    }

    @Test func aDisposedBindingReleasesItsSourceAndLeavesTheTargetFree() {
        let target = MutableProperty(0)
        weak var weakWitness: Witness?
        var binding: (any Disposable)?
        do {
            let witness = Witness()
            weakWitness = witness
            binding = target <~ SignalProducer<Int, Never> { observer, lifetime in
                lifetime.observeEnded { withExtendedLifetime(witness) {} }
                observer.send(value: 1)
            }.map { value in withExtendedLifetime(witness) { value } }
        }
        #expect(target.value == 1)
        #expect(weakWitness != nil)
        binding?.dispose()
        #expect(weakWitness == nil)
    }

    @Test func aBindingDoesNotKeepItsTargetAliveAndEndsWithIt() {
        let source = MutableProperty(0)
        weak var weakTarget: MutableProperty<Int>?
        weak var weakWitness: Witness?
        do {
            let target = MutableProperty(0)
            weakTarget = target
            let witness = Witness()
            weakWitness = witness
            target <~ source.producer.map { value in withExtendedLifetime(witness) { value } }
            source.value = 1
            #expect(target.value == 1)
        }
        #expect(weakTarget == nil)
        #expect(weakWitness == nil)
    }

    @Test func aDeinitializedPropertyReleasesItsObservers() {
        weak var weakWitness: Witness?
        do {
            let property = MutableProperty(0)
            let witness = Witness()
            weakWitness = witness
            property.signal.observeValues { _ in withExtendedLifetime(witness) {} }
            property.producer.startWithValues { _ in withExtendedLifetime(witness) {} }
        }
        #expect(weakWitness == nil)
    }

    @Test func aDeinitializedDerivedPropertyReleasesItsSourceProducer() {
        weak var weakWitness: Witness?
        var property: Property<Int>?
        do {
            let witness = Witness()
            weakWitness = witness
            property = Property(initial: 0, then: SignalProducer<Int, Never> { _, lifetime in
                lifetime.observeEnded { withExtendedLifetime(witness) {} }
            }).map { value in withExtendedLifetime(witness) { value + 1 } }
        }
        #expect(property?.value == 1)
        #expect(weakWitness != nil)
        property = nil
        #expect(weakWitness == nil)
    }

    @Test func aDisposedCurrentValueSubjectObserverIsReleased() {
        let subject = CurrentValueSubject<Int, Never>(0)
        weak var weakWitness: Witness?
        var disposables: [any Disposable] = []
        do {
            let witness = Witness()
            weakWitness = witness
            disposables.append(subject.observeValues { _ in withExtendedLifetime(witness) {} })
            disposables.append(subject.changes.observeValues { _ in withExtendedLifetime(witness) {} })
        }
        #expect(weakWitness != nil)
        for disposable in disposables { disposable.dispose() }
        #expect(weakWitness == nil)
    }
}
