import Foundation
import StreamProtocol
import Synchronization

/// The `group` workload (issue "Durable consumers"): what `../shared/peers/redis_group_bench.c` gives
/// Redis Streams. The events are published first (not timed); then four members, each a connection on
/// a thread of its own, share one durable consumer from the start: each takes up to 64 events at a
/// time (its credit, as Redis's `XREADGROUP … COUNT 64`), acknowledges every event of a delivery by
/// its sequence (one `ACK` frame listing them, as Redis's client pipelines one `XACK` per event in one
/// write) and grants the credit again. An event counts once the daemon answered its `ACK`, which it
/// does only after the acknowledgement is stored; the clock runs from before the members connect to
/// the last answer.
///
/// Thread-safety: each connection is opened, used and closed on its member's thread; the members
/// share only an atomic count.
enum ConsumerGroupBenchmark {
    /// The members, as `run-peers.sh` passes to `redis_group_bench`.
    static let members = 4
    /// Each member's credit: Redis's `COUNT`.
    static let credit: UInt32 = 64

    /// Events read and acknowledged per second, all members together.
    ///
    /// - Parameters:
    ///   - socketPath: the daemon's Unix socket.
    ///   - events: how many events the stream holds (published here first).
    ///   - payload: each event's payload.
    /// - Throws: `BenchFailure` when a connection fails, a reply is not what the workload expects, or
    ///   the members are not done within 10 minutes.
    static func run(_ socketPath: String, events: Int, payload: [UInt8]) throws -> Double {
        let publisher = try BenchSocket(path: socketPath, version: ProtocolVersions.consumers)
        try publisher.publishPipelined(events, payload: payload, to: "group", window: ClientBenchmark.window)
        let added = try publisher.request(.addConsumer(stream: "group", name: "g", config: ConsumerConfig(start: .all)))
        guard case .consumerInfo = added else { throw BenchFailure("ADD_CONSUMER was answered with \(added)") }

        let acknowledged = AcknowledgedCount()
        let sockets = Mutex<[Int32]>([])
        let start = monotonicNanoseconds()
        let workers = (0..<members).map { member in
            BackgroundWork {
                let socket = try BenchSocket(path: socketPath, version: ProtocolVersions.consumers)
                sockets.withLock { $0.append(socket.descriptor) }
                try consume(socket, id: UInt32(member + 1), until: events, counting: acknowledged)
            }
        }
        // The first member to see the last acknowledgement is done; the others may wait for frames
        // that never come, so their sockets are shut once the count is reached.
        while acknowledged.value < events {
            guard seconds(since: start) < 600 else { throw BenchFailure("the members acknowledged \(acknowledged.value) of \(events) events in 10 minutes") }
            usleep(200)
        }
        let elapsed = seconds(since: start)
        for descriptor in sockets.withLock({ $0 }) { shutdown(descriptor, Int32(SHUT_RDWR)) }
        for worker in workers { _ = try? worker.result(within: 10) }
        return Double(events) / elapsed
    }

    /// One member: attaches, then acknowledges every delivery and grants its credit again, until the
    /// members together have `total` acknowledgements answered.
    private static func consume(_ socket: BenchSocket, id: UInt32, until total: Int, counting acknowledged: AcknowledgedCount) throws {
        try socket.send(.consume(.init(subscriptionID: id, stream: "group", consumer: "g", credit: credit)))
        var waiting: [UInt32: Int] = [:]
        while acknowledged.value < total {
            let frames: [(requestID: UInt32, message: ServerMessage)]
            do { frames = try socket.readFrames() } catch { return }
            var out: [UInt8] = []
            for (requestID, message) in frames {
                switch message {
                case let .deliveries(_, deliveries):
                    let ackID = socket.takeRequestID()
                    waiting[ackID] = deliveries.count
                    out += try ClientMessage.ack(stream: "group", consumer: "g", sequences: deliveries.map(\.event.sequence)).encoded(requestID: ackID)
                    out += try ClientMessage.credit(subscriptionID: id, credit: UInt32(deliveries.count)).encoded(requestID: socket.takeRequestID())
                case .ok:
                    if let count = waiting.removeValue(forKey: requestID) { acknowledged.add(count) }
                case .subscribed:
                    break
                default:
                    throw BenchFailure("member \(id) got \(message)")
                }
            }
            if !out.isEmpty { try socket.write(out) }
        }
    }
}

/// The events whose acknowledgement the daemon answered, over all members.
///
/// Thread-safety: Sendable; an atomic.
private final class AcknowledgedCount: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .acquiring) }

    func add(_ more: Int) { count.add(more, ordering: .releasing) }
}
