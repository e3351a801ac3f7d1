import Dispatch
import Synchronization
import Testing
@testable import Reactive

@Suite struct DisposableTests {
    @Test func anActionDisposableRunsItsActionExactlyOnceUnderRacingDisposals() {
        let runs = Counter()
        let disposable = AnyDisposable { runs.increment() }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in disposable.dispose() }
        #expect(runs.value == 1)
        #expect(disposable.isDisposed)
    }

    @Test func aCompositeDisposesItsMembersInTheOrderTheyWereAdded() {
        let order = Mutex<[Int]>([])
        let composite = CompositeDisposable()
        for index in 0..<50 { composite += { order.withLock { $0.append(index) } } }
        composite.dispose()
        #expect(order.withLock { $0 } == Array(0..<50))
    }

    @Test func aMemberRemovedByItsHandleIsNotDisposed() {
        let runs = Counter()
        let composite = CompositeDisposable()
        let handle = composite.add { runs.increment() }
        handle.dispose()
        composite.dispose()
        #expect(runs.value == 0)
    }

    @Test func addingToADisposedCompositeDisposesTheAdditionAtOnce() {
        let composite = CompositeDisposable()
        composite.dispose()
        let late = AnyDisposable()
        composite += late
        #expect(late.isDisposed)
    }

    @Test func aCompositeDisposesEveryMemberOnceWhileThreadsAddAndDispose() {
        let runs = Counter()
        let composite = CompositeDisposable()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<1_000 { composite += { runs.increment() } }
            if thread == 3 { composite.dispose() }
        }
        composite.dispose()
        #expect(runs.value == 8_000)
    }

    @Test func aSerialDisposableDisposesTheInnerItReplacesAndAnyInnerSetAfterDisposal() {
        let serial = SerialDisposable()
        let first = AnyDisposable()
        let second = AnyDisposable()
        serial.inner = first
        serial.inner = second
        #expect(first.isDisposed && !second.isDisposed)
        serial.dispose()
        #expect(second.isDisposed)
        let third = AnyDisposable()
        serial.inner = third
        #expect(third.isDisposed)
    }

    @Test func aScopedDisposableDisposesWhenItGoesAway() {
        let inner = AnyDisposable()
        do { _ = ScopedDisposable(inner) }
        #expect(inner.isDisposed)
    }

    @Test func aLifetimeEndsWhenItsTokenGoesAwayAndRunsWhatObservesIt() {
        let ended = Counter()
        var token: Lifetime.Token? = nil
        let lifetime: Lifetime
        (lifetime, token) = Lifetime.make()
        lifetime.observeEnded { ended.increment() }
        let attached = AnyDisposable()
        lifetime += attached
        #expect(!lifetime.hasEnded)
        token = nil
        #expect(lifetime.hasEnded && attached.isDisposed && ended.value == 1)
        lifetime.observeEnded { ended.increment() }
        #expect(ended.value == 2)
        _ = token
    }

    @Test func disposingAStartedLiftedProducerAlwaysInterruptsTheOperatorsUpstream() {
        for _ in 0..<50 {
            let interrupted = Counter()
            let disposable = SignalProducer<Int, Never>.never
                .lift { signal in
                    signal.relay { downstream, _ in
                        Observer { event in
                            if case .interrupted = event { interrupted.increment() }
                            downstream.send(event)
                        }
                    }
                }
                .map { $0 }
                .start()
            disposable.dispose()
            #expect(interrupted.value == 1)
        }
    }
}
