import Foundation

/// Reads a client's frames until the server closes, on a thread of its own: a blocking read on the
/// Swift concurrency pool could starve the server's tasks while tests run in parallel.
///
/// `@unchecked Sendable` is safe because `result` is written once before `done` is signalled and read after.
public final class BackgroundReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<[Received], any Error> = .success([])

    public init(_ client: SocketClient) {
        Thread.detachNewThread { [self] in
            result = Result { try client.framesUntilClosed() }
            done.signal()
        }
    }

    /// Waits for the close and returns every frame read.
    public func frames() throws -> [Received] {
        done.wait()
        return try result.get()
    }
}
