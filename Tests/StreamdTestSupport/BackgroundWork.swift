import Foundation
import Synchronization

/// Work on a thread of its own, whose result the test waits for: a blocking read on the Swift
/// concurrency pool could starve the server's tasks while tests run in parallel.
///
/// `@unchecked Sendable` is safe because `outcome` is written once before `finished` is set (releasing)
/// and `done` signalled, and read only after seeing `finished` (acquiring) or waiting for `done`.
public final class BackgroundWork<Output>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<Output, any Error>?
    private let finished = Atomic(false)

    public init(_ body: @escaping @Sendable () throws -> Output) {
        Thread.detachNewThread { [self] in
            outcome = Result { try body() }
            finished.store(true, ordering: .releasing)
            done.signal()
        }
    }

    /// Whether the work has finished (its result is then there without waiting).
    public var isFinished: Bool { finished.load(ordering: .acquiring) }

    /// The work's result, once it has finished (as often as asked); fails if that takes longer than `seconds`.
    public func result(within seconds: Double = 60) throws -> Output {
        guard isFinished || done.wait(timeout: .now() + seconds) == .success, let outcome else {
            throw TestFailure("background work did not finish within \(seconds) s")
        }
        return try outcome.get()
    }
}

/// Reads a client's frames until the server closes, on a thread of its own.
public final class BackgroundReader: Sendable {
    private let work: BackgroundWork<[Received]>

    public init(_ client: SocketClient) {
        work = BackgroundWork { try client.framesUntilClosed() }
    }

    /// Waits for the close and returns every frame read.
    public func frames() throws -> [Received] {
        try work.result()
    }
}
