import Reactive
import StreamProtocol
import Synchronization

extension StreamConnection {
    /// The events of `stream` from `start` up to the last one stored when the call begins, then the end
    /// of the sequence: a bounded read, where `events(in:from:)` goes on with live events.
    ///
    /// It asks for the stream's last sequence first, then subscribes, and ends at that sequence (or at
    /// once, when the subscription starts past it: nothing to read, or everything trimmed meanwhile).
    /// A stored completion ends it early; a stored failure throws `.streamFailed`; an unknown stream
    /// throws `.server(code: .streamNotFound, …)`.
    public func history(of stream: String, from start: StartPosition = .all) -> AsyncThrowingStream<ReceivedEvent, any Error> {
        AsyncThrowingStream { continuation in
            let subscription = SerialDisposable()
            continuation.onTermination = { _ in subscription.dispose() }
            Task {
                let end: UInt64
                do {
                    end = try await self.streamInfo(stream).lastSequence
                } catch {
                    return continuation.finish(throwing: error)
                }
                guard end > 0 else { return continuation.finish() }
                let producer = self.subscription(stream, from: start, credit: Self.defaultCredit) { next in
                    if next > end { continuation.finish() }
                }
                subscription.inner = producer.start { event in
                    switch event {
                    case let .value(received):
                        if received.sequence <= end { continuation.yield(received) }
                        if received.sequence >= end { continuation.finish() }
                    case let .failed(error): continuation.finish(throwing: error)
                    case .completed, .interrupted: continuation.finish()
                    }
                }
            }
        }
    }
}
