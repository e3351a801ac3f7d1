import Testing
@testable import Reactive

@Suite struct PropertyTests {
    @Test func aConstantPropertySendsItsValueAndCompletes() {
        let property = Property(value: 5)
        let current = Recorder<Int, Never>()
        let changes = Recorder<Int, Never>()
        property.producer.start(current.observer)
        property.signal.observe(changes.observer)
        #expect(property.value == 5)
        #expect(current.events == [.value(5), .completed])
        #expect(changes.events == [.completed])
    }

    @Test func aCapturingPropertyFollowsTheMutablePropertyAndKeepsItAlive() {
        weak var weakSource: MutableProperty<Int>?
        let property: Property<Int>
        let source: MutableProperty<Int>? = MutableProperty(1)
        weakSource = source
        property = Property(capturing: source!)
        let changes = Recorder<Int, Never>()
        property.signal.observe(changes.observer)
        source?.value = 2
        #expect(property.value == 2)
        #expect(changes.values == [2])
        _ = consume source
        #expect(weakSource != nil)
    }

    @Test func aPropertyFromAProducerHoldsTheInitialValueThenFollowsIt() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let property = Property(initial: 0, then: signal)
        let current = Recorder<Int, Never>()
        property.producer.start(current.observer)
        input.send(value: 1)
        #expect(property.value == 1)
        input.sendCompleted()
        #expect(current.events == [.value(0), .value(1), .completed])
        #expect(property.value == 1)
    }

    @Test func aProducerSendingAtOnceSetsTheValueBeforeInitReturns() {
        let property = Property(initial: 0, then: SignalProducer([1, 2, 3]))
        #expect(property.value == 3)
    }

    @Test func deinitializingAPropertyInterruptsItsProducer() {
        let cancelled = Counter()
        var property: Property<Int>? = Property(initial: 0, then: SignalProducer { _, lifetime in
            lifetime.observeEnded { cancelled.increment() }
        })
        let changes = Recorder<Int, Never>()
        property!.signal.observe(changes.observer)
        #expect(cancelled.value == 0)
        property = nil
        #expect(cancelled.value == 1)
        #expect(changes.events == [.completed])
    }

    @Test func mapTransformsTheValueTheProducerAndTheSignal() {
        let source = MutableProperty(2)
        let doubled = Property(capturing: source).map { $0 * 2 }
        let current = Recorder<Int, Never>()
        let changes = Recorder<Int, Never>()
        doubled.producer.start(current.observer)
        doubled.signal.observe(changes.observer)
        source.value = 5
        #expect(doubled.value == 10)
        #expect(current.values == [4, 10])
        #expect(changes.values == [10])
    }
}
