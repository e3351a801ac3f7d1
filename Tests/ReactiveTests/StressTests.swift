import Foundation
import Synchronization
import Testing
@testable import Reactive

/// Many threads sending, subscribing and disposing at once. Every test runs under a bounded wait, so a
/// deadlock fails the test instead of hanging the run.
@Suite struct StressTests {
    static let senders = 4
    static let valuesPerSender = 1500
    static let churners = 4
    static let churnRounds = 150

    /// A value tagged with its sender, so that per-sender order can be checked.
    struct Tagged: Sendable, Equatable {
        var sender: Int
        var index: Int
    }

    /// Runs `senders` threads that each send their own sequence and `churners` threads that subscribe
    /// and dispose over and over, all at once; returns what each churner subscription received.
    static func run(
        send: @escaping @Sendable (Tagged) -> Void,
        subscribe: @escaping @Sendable (_ action: @escaping @Sendable (Tagged) -> Void) -> any Disposable
    ) -> (finished: Bool, churned: [[Tagged]]) {
        let churned = Mutex<[[Tagged]]>([])
        let finished = completesInTime(seconds: 30) {
            onSeparateThreads(senders + churners) { thread in
                if thread < senders {
                    // Yielding between sends interleaves them with the churners' subscriptions.
                    for index in 0..<valuesPerSender {
                        send(Tagged(sender: thread, index: index))
                        sched_yield()
                    }
                } else {
                    // Each subscription lives while the next one is made, so that it overlaps with sends.
                    var previous: (Recorder<Tagged, Never>, any Disposable)?
                    for _ in 0..<churnRounds {
                        let seen = Recorder<Tagged, Never>()
                        let disposable = subscribe { seen.observer.send(value: $0) }
                        for _ in 0..<10 { sched_yield() }
                        if let (recorder, subscription) = previous {
                            subscription.dispose()
                            churned.withLock { $0.append(recorder.values) }
                        }
                        previous = (seen, disposable)
                    }
                    if let (recorder, subscription) = previous {
                        subscription.dispose()
                        churned.withLock { $0.append(recorder.values) }
                    }
                }
            }
        }
        return (finished, churned.withLock { $0 })
    }

    /// Runs `body` on `count` threads of their own (not a pool sized to the 2 cores, which would run
    /// them two at a time), released together, and waits for all of them.
    static func onSeparateThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let ready = Atomic<Int>(0)
        let done = DispatchGroup()
        for thread in 0..<count {
            done.enter()
            Thread.detachNewThread {
                ready.add(1, ordering: .acquiringAndReleasing)
                while ready.load(ordering: .acquiring) < count { sched_yield() }
                body(thread)
                done.leave()
            }
        }
        done.wait()
    }

    /// Each sender's values, in the order received.
    static func bySender(_ values: [Tagged]) -> [Int: [Int]] {
        Dictionary(grouping: values, by: \.sender).mapValues { $0.map(\.index) }
    }

    /// The stayer received every sender's whole sequence, in order, once.
    static func expectComplete(_ values: [Tagged], sourceLocation: SourceLocation = #_sourceLocation) {
        let groups = bySender(values)
        for sender in 0..<senders {
            let received = groups[sender] ?? []
            #expect(received.count == valuesPerSender, "sender \(sender)", sourceLocation: sourceLocation)
            #expect(received == Array(0..<valuesPerSender), "sender \(sender)", sourceLocation: sourceLocation)
        }
    }

    /// A churner saw, per sender, consecutive indexes: nothing lost or doubled while it was attached.
    static func expectGapless(_ churned: [[Tagged]], sourceLocation: SourceLocation = #_sourceLocation) {
        let broken = churned.filter { values in
            bySender(values).values.contains { indexes in zip(indexes, indexes.dropFirst()).contains { $1 != $0 + 1 } }
        }
        #expect(broken.isEmpty, "\(broken.count) subscriptions saw a gap or a duplicate", sourceLocation: sourceLocation)
        #expect(churned.contains { !$0.isEmpty }, "no subscription overlapped the sends", sourceLocation: sourceLocation)
    }

    @Test func aPassthroughSubjectUnderConcurrentSendsAndSubscriptions() {
        let subject = PassthroughSubject<Tagged, Never>()
        let stayer = Recorder<Tagged, Never>()
        subject.observe(stayer.observer)
        let (finished, churned) = Self.run(send: { subject.send(value: $0) }, subscribe: { subject.observeValues($0) })
        #expect(finished)
        Self.expectComplete(stayer.values)
        Self.expectGapless(churned)
    }

    @Test func aReplaySubjectHandsOverFromReplayToLiveWithoutGapsOrDuplicates() {
        let subject = ReplaySubject<Tagged, Never>(capacity: 16)
        let stayer = Recorder<Tagged, Never>()
        subject.observe(stayer.observer)
        let (finished, churned) = Self.run(send: { subject.send(value: $0) }, subscribe: { subject.observeValues($0) })
        #expect(finished)
        Self.expectComplete(stayer.values)
        Self.expectGapless(churned)
        #expect((subject.core.replayBuffer?.count ?? 0) <= 16)
    }

    @Test func aMutablePropertyKeepsEachWritersOrder() {
        let property = MutableProperty(Tagged(sender: -1, index: -1))
        let stayer = Recorder<Tagged, Never>()
        property.signal.observe(stayer.observer)
        let (finished, churned) = Self.run(
            send: { property.value = $0 },
            subscribe: { action in property.producer.startWithValues(action) }
        )
        #expect(finished)
        Self.expectComplete(stayer.values)
        // A churner starts with the current value, which may be the initial one.
        Self.expectGapless(churned.map { $0.filter { $0.sender >= 0 } })
    }

    @Test func aMulticastConnectionSharesOneSourceWhileSubscribersComeAndGo() {
        let (signal, input) = Signal<Tagged, Never>.pipe()
        let starts = Counter()
        let shared = SignalProducer<Tagged, Never> { observer, lifetime in
            starts.increment()
            lifetime += signal.observe(observer)
        }.publish().autoconnect()
        let stayer = Recorder<Tagged, Never>()
        let stay = shared.start(stayer.observer)
        let (finished, churned) = Self.run(send: { input.send(value: $0) }, subscribe: { shared.startWithValues($0) })
        #expect(finished)
        Self.expectComplete(stayer.values)
        Self.expectGapless(churned)
        #expect(starts.value == 1)
        stay.dispose()
    }

    @Test func autoconnectSurvivesSubscribersRacingToConnectAndDisconnect() {
        let (signal, input) = Signal<Tagged, Never>.pipe()
        let running = Atomic<Int>(0)
        let starts = Counter()
        let shared = SignalProducer<Tagged, Never> { observer, lifetime in
            starts.increment()
            running.add(1, ordering: .relaxed)
            lifetime.observeEnded { running.subtract(1, ordering: .relaxed) }
            lifetime += signal.observe(observer)
        }.publish().autoconnect()
        let (finished, churned) = Self.run(send: { input.send(value: $0) }, subscribe: { shared.startWithValues($0) })
        #expect(finished)
        Self.expectGapless(churned)
        #expect(starts.value >= 1)
        #expect(running.load(ordering: .relaxed) == 0, "the source still runs with no subscriber left")
    }
}
