import Foundation

/// Work running on a thread of its own (blocking socket reads must not sit on the main thread),
/// whose result the starter waits for.
///
/// `@unchecked Sendable` is safe because `outcome` is written once before `done` is signalled and
/// read only after waiting for it.
final class BackgroundWork<Output>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<Output, any Error>?

    init(_ body: @escaping @Sendable () throws -> Output) {
        Thread.detachNewThread { [self] in
            outcome = Result { try body() }
            done.signal()
        }
    }

    /// The work's result, once it has finished; fails if that takes longer than `seconds`.
    func result(within seconds: Double) throws -> Output {
        guard done.wait(timeout: .now() + seconds) == .success, let outcome else {
            throw BenchFailure("background work did not finish within \(seconds) s")
        }
        return try outcome.get()
    }
}
