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
