import Foundation
import Synchronization
@testable import Reactive

/// The seeds' "network request": a producer whose every start is one request and whose end cancels it.
///
/// `emit` sends a response into the running request(s) from the test, like a server answering.
final class FakeNetwork: Sendable {
    let requests = Counter()
    let cancellations = Counter()
    let interruptionsSeen = Counter()
    private let inputs = Mutex<[Observer<String, TestError>]>([])

    /// A request that answers `responses` at once and then stays open until it is cancelled or
    /// `finish()` is called.
    func request(responses: [String] = []) -> SignalProducer<String, TestError> {
        SignalProducer { [self] observer, lifetime in
            requests.increment()
            lifetime.observeEnded { [self] in cancellations.increment() }
            inputs.withLock { $0.append(observer) }
            for response in responses { observer.send(value: response) }
        }
        .reportingInterruption { [self] in interruptionsSeen.increment() }
    }

    /// Sends a response to every running request.
    func emit(_ value: String) { for input in inputs.withLock({ $0 }) { input.send(value: value) } }

    /// Completes every running request.
    func finish() { for input in inputs.withLock({ $0 }) { input.sendCompleted() } }
}

extension SignalProducer {
    /// Calls `interrupted` when a start is interrupted (a test-only stand-in for an `on` operator).
    func reportingInterruption(_ interrupted: @escaping @Sendable () -> Void) -> SignalProducer {
        SignalProducer { observer, lifetime in
            lifetime += start { event in
                if case .interrupted = event { interrupted() }
                observer.send(event)
            }
        }
    }
}

/// Waits for `work` on another thread, for at most `seconds`: a bounded wait that turns a deadlock into
/// a test failure instead of a hung test run.
func completesInTime(seconds: Double = 10, _ work: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        work()
        done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
}

/// One of the hot event sources the cross-cutting tests run against, reduced to sending and observing.
struct Hub: Sendable {
    /// Sends a value into the source.
    let send: @Sendable (Int) -> Void
    let observeAction: @Sendable (_ action: @escaping @Sendable (Int) -> Void) -> any Disposable
    /// Keeps alive whatever the hub is made of.
    let owner: any Sendable

    /// Observes the values from now on (plus a replay, if the kind replays).
    @discardableResult
    func observe(_ action: @escaping @Sendable (Int) -> Void) -> any Disposable { observeAction(action) }
}

/// The kinds of hot sources that share the reentrancy and concurrency guarantees.
enum HubKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case passthroughSubject, replaySubject, currentValueSubject, mutableProperty, multicastConnection

    var description: String { rawValue }

    /// Whether a new observer first receives the values already sent: all of them for the replay
    /// subject (unlimited), none otherwise (the current-value kinds are observed through their changes).
    var replaysEverything: Bool { self == .replaySubject }

    func make() -> Hub {
        switch self {
        case .passthroughSubject:
            let subject = PassthroughSubject<Int, Never>()
            return Hub(send: { subject.send(value: $0) }, observeAction: { subject.observeValues($0) }, owner: subject)
        case .replaySubject:
            let subject = ReplaySubject<Int, Never>(capacity: .unlimited)
            return Hub(send: { subject.send(value: $0) }, observeAction: { subject.observeValues($0) }, owner: subject)
        case .currentValueSubject:
            let subject = CurrentValueSubject<Int, Never>(0)
            return Hub(send: { subject.value = $0 }, observeAction: { subject.changes.observeValues($0) }, owner: subject)
        case .mutableProperty:
            let property = MutableProperty(0)
            return Hub(send: { property.value = $0 }, observeAction: { property.signal.observeValues($0) }, owner: property)
        case .multicastConnection:
            let (signal, input) = Signal<Int, Never>.pipe()
            let connection = SignalProducer(signal).publish()
            let connected = connection.connect()
            return Hub(
                send: { input.send(value: $0) },
                observeAction: { connection.signal.observeValues($0) },
                owner: [signal, connection, connected] as [any Sendable]
            )
        }
    }
}
