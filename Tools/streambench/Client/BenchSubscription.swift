import StreamProtocol

/// The reading side of one subscription: counts its events and keeps the server supplied with credit.
///
/// Thread-safety: `@unchecked Sendable` so a reading thread can take it over; one thread at a time uses it.
final class BenchSubscription: @unchecked Sendable {
    static let credit: UInt32 = 65_536

    let socket: BenchSocket
    let id: UInt32
    private(set) var received = 0
    private var unacknowledged: UInt32 = 0

    /// Subscribes on `socket` to `stream` from `start`.
    init(socket: BenchSocket, stream: String, from start: StartPosition, id: UInt32 = 1) throws {
        self.socket = socket
        self.id = id
        let reply = try socket.request(.subscribe(.init(subscriptionID: id, stream: stream, start: start, credit: Self.credit)))
        guard case .subscribed = reply else { throw BenchFailure("subscribe answered with \(reply)") }
    }

    /// Takes one frame; `each` sees every event. Returns credit to the server every half window.
    func take(_ message: ServerMessage, each: (WireEvent) -> Void = { _ in }) throws {
        guard case let .events(subscription, events) = message, subscription == id else { return }
        for event in events { each(event) }
        received += events.count
        unacknowledged += UInt32(events.count)
        if unacknowledged >= Self.credit / 2 {
            try socket.send(.credit(subscriptionID: id, credit: unacknowledged))
            unacknowledged = 0
        }
    }

    /// Reads until `count` events have arrived in all.
    func read(until count: Int, each: (WireEvent) -> Void = { _ in }) throws {
        while received < count {
            for frame in try socket.readFrames() { try take(frame.message, each: each) }
        }
    }
}
