import NIOCore
import StreamProtocol
import Synchronization

/// One attachment of this client to a durable consumer: its subscription id, the acknowledgements
/// waiting to be sent, and the credit they give back.
///
/// Acknowledgements made while one event-loop turn runs go out together as one `ACK` at its end. An
/// acknowledgement names the consumer, not the membership, so one made after the member left (a loop
/// that broke out, then acknowledged what it took) still counts, as long as the connection lives.
/// While the member is attached, each settled delivery (acknowledged or given back) gives one credit
/// back, granted in halves of the window, so a member never holds more than `credit` unsettled events.
/// Thread-safety: Sendable; its state is under a mutex and frames are sent outside it.
final class ConsumerMembership: Sendable {
    typealias Stored = @Sendable (StreamClientError?) -> Void

    private struct State {
        var id: UInt32 = 0
        var sequences: [UInt64] = []
        var waiting: [Stored] = []
        var flushScheduled = false
        var settled: UInt32 = 0
        var ended = false
    }

    private weak let connection: StreamConnection?
    private let stream: String
    private let consumer: String
    private let credit: UInt32
    /// Whether settled deliveries give their credit back.
    private let refilling: Bool
    private let state = Mutex(State())

    init(connection: StreamConnection, stream: String, consumer: String, credit: UInt32, refilling: Bool = true) {
        self.connection = connection
        self.stream = stream
        self.consumer = consumer
        self.credit = credit
        self.refilling = refilling
    }

    /// The subscription id, once registered.
    var id: UInt32 {
        get { state.withLock { $0.id } }
        set { state.withLock { $0.id = newValue } }
    }

    /// Notes that the membership ended: settling grants no more credit.
    func end() {
        state.withLock { $0.ended = true }
    }

    /// Queues the acknowledgement of `sequence`; `stored` hears when the daemon stored it.
    func ack(_ sequence: UInt64, stored: Stored?) {
        guard let connection, !connection.isClosed else {
            stored?(.connectionClosed("the connection was closed before the acknowledgement was sent; the event is delivered again after its ack wait."))
            return
        }
        let schedule = state.withLock { state -> Bool in
            state.sequences.append(sequence)
            if let stored { state.waiting.append(stored) }
            defer { state.flushScheduled = true }
            return !state.flushScheduled
        }
        if schedule { connection.channel.eventLoop.execute { self.flush() } }
        settled(1)
    }

    /// Gives `sequence` back for delivery after `delay`.
    func giveBack(_ sequence: UInt64, delay: Duration) {
        guard let connection else { return }
        connection.send(.nack(stream: stream, consumer: consumer, sequence: sequence, delayMilliseconds: delay.wholeMillisecondsRoundedUp))
        settled(1)
    }

    /// Sends the acknowledgements queued so far as one `ACK`.
    private func flush() {
        guard let connection else { return }
        let (sequences, waiting) = state.withLock { state -> ([UInt64], [Stored]) in
            state.flushScheduled = false
            defer {
                state.sequences = []
                state.waiting = []
            }
            return (state.sequences, state.waiting)
        }
        guard !sequences.isEmpty else { return }
        connection.send(.ack(stream: stream, consumer: consumer, sequences: sequences)) { reply in
            let error: StreamClientError?
            switch reply {
            case .success(.ok): error = nil
            case let .success(.error(code, message)): error = .server(code: code, message: message)
            case let .success(other): error = .protocolViolation("expected OK, got \(other)")
            case let .failure(failure): error = failure
            }
            for stored in waiting { stored(error) }
        }
    }

    /// Counts settled deliveries and grants their credit back once half the window is settled.
    private func settled(_ count: UInt32) {
        guard refilling else { return }
        let grant = state.withLock { state -> (UInt32, UInt32)? in
            state.settled += count
            guard state.settled >= max(credit / 2, 1), !state.ended else { return nil }
            defer { state.settled = 0 }
            return (state.id, state.settled)
        }
        if let (id, count) = grant { connection?.send(.credit(subscriptionID: id, credit: count)) }
    }
}
