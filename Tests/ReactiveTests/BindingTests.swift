import Testing
@testable import Reactive

@Suite struct BindingTests {
    @Test func bindingASignalSetsTheTargetWithEachValue() {
        let target = MutableProperty(0)
        let (signal, input) = Signal<Int, Never>.pipe()
        target <~ signal
        input.send(value: 1)
        input.send(value: 2)
        #expect(target.value == 2)
    }

    @Test func bindingAProducerStartsItAndSetsTheTarget() {
        let target = MutableProperty(0)
        target <~ SignalProducer([4, 5])
        #expect(target.value == 5)
    }

    @Test func bindingAPropertySetsTheTargetToItsCurrentValueThenItsChanges() {
        let source = MutableProperty("a")
        let target = MutableProperty("")
        target <~ source
        #expect(target.value == "a")
        source.value = "b"
        #expect(target.value == "b")
        let readOnly = Property(capturing: source)
        let other = MutableProperty("")
        other <~ readOnly
        #expect(other.value == "b")
    }

    @Test func disposingTheBindingStopsItAndInterruptsAProducer() {
        let target = MutableProperty(0)
        let cancelled = Counter()
        let (signal, input) = Signal<Int, Never>.pipe()
        let binding = target <~ SignalProducer(signal).notifyingEnd { cancelled.increment() }
        input.send(value: 1)
        binding.dispose()
        input.send(value: 2)
        #expect(target.value == 1)
        #expect(cancelled.value == 1)
    }

    @Test func theBindingEndsWhenTheTargetIsDeinitialized() {
        let cancelled = Counter()
        let (signal, input) = Signal<Int, Never>.pipe()
        weak var weakTarget: MutableProperty<Int>?
        var binding: (any Disposable)?
        do {
            let target = MutableProperty(0)
            weakTarget = target
            binding = target <~ SignalProducer(signal).notifyingEnd { cancelled.increment() }
            input.send(value: 1)
            #expect(target.value == 1)
        }
        #expect(weakTarget == nil)
        #expect(cancelled.value == 1)
        #expect(binding?.isDisposed == true)
    }

    @Test func theBindingEndsWhenTheSourceTerminatesAndUnregistersFromTheTarget() {
        let target = MutableProperty(0)
        let (signal, input) = Signal<Int, Never>.pipe()
        weak var weakBinding: (any Disposable)?
        do {
            let binding = target <~ signal
            weakBinding = binding
            input.send(value: 1)
            #expect(!binding.isDisposed)
            input.sendCompleted()
            #expect(binding.isDisposed)
        }
        // The target lives on; had its lifetime kept the finished binding registered, it would hold it.
        #expect(weakBinding == nil)
        #expect(target.value == 1)
    }

    @Test func aCustomTargetReceivesValuesUntilItsLifetimeEnds() {
        let received = Recorder<Int, Never>()
        let (lifetime, token) = Lifetime.make()
        let target = BindingTarget<Int>(lifetime: lifetime) { received.observer.send(value: $0) }
        let (signal, input) = Signal<Int, Never>.pipe()
        target <~ signal
        input.send(value: 1)
        token.end()
        input.send(value: 2)
        #expect(received.values == [1])
    }

    @Test func bindingToATargetWhoseLifetimeEndedDoesNothing() {
        let starts = Counter()
        let target = BindingTarget<Int>(lifetime: .empty) { _ in Issue.record("no value expected") }
        let binding = target <~ SignalProducer<Int, Never> { observer, _ in
            starts.increment()
            observer.send(value: 1)
        }
        #expect(starts.value == 0)
        #expect(binding.isDisposed)
    }
}

extension SignalProducer {
    /// Calls `ended` when a start's lifetime ends (test-only).
    fileprivate func notifyingEnd(_ ended: @escaping @Sendable () -> Void) -> SignalProducer {
        SignalProducer { observer, lifetime in
            lifetime.observeEnded(ended)
            lifetime += start(observer)
        }
    }
}
