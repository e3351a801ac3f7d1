/// A durable consumer as the log keeps it: its configuration and its place in the stream.
///
/// Every event below `nextSequence` that is not in `pending` is acknowledged; `pending` holds the
/// events delivered and not yet acknowledged, by sequence, with how often each was delivered.
/// `streamCreated` names the life of the stream the consumer belongs to, so a record saved late never
/// lands on a new stream of the same name. Values are Sendable.
package struct ConsumerRecord: Sendable, Equatable {
    package var stream: String
    /// The stream's `created` time (`StreamState.created`).
    package var streamCreated: Int64
    package var name: String
    package var config: ConsumerConfig
    package var nextSequence: UInt64
    /// Delivered and unacknowledged events, in sequence order.
    package var pending: [PendingDelivery]

    package init(stream: String, streamCreated: Int64, name: String, config: ConsumerConfig, nextSequence: UInt64, pending: [PendingDelivery] = []) {
        self.stream = stream
        self.streamCreated = streamCreated
        self.name = name
        self.config = config
        self.nextSequence = nextSequence
        self.pending = pending
    }
}

/// One event delivered and not yet acknowledged, and how many times it was delivered.
package struct PendingDelivery: Sendable, Equatable {
    package var sequence: UInt64
    package var deliveries: UInt32

    package init(sequence: UInt64, deliveries: UInt32) {
        self.sequence = sequence
        self.deliveries = deliveries
    }
}

extension ConsumerRecord {
    /// `pending` as stored: per event, two varints, the distance from the previous sequence (from 0 for
    /// the first) and the delivery count.
    package var encodedPending: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pending.count * 3)
        var previous: UInt64 = 0
        for delivery in pending {
            Varint.append(delivery.sequence &- previous, to: &bytes)
            Varint.append(UInt64(delivery.deliveries), to: &bytes)
            previous = delivery.sequence
        }
        return bytes
    }

    /// Reads the stored form of `pending`; nil when it is damaged (a varint cut short or too long, a
    /// count past `UInt32.max`, or sequences not increasing).
    package static func decodePending(_ bytes: [UInt8]) -> [PendingDelivery]? {
        bytes.withUnsafeBytes { raw in
            var pending: [PendingDelivery] = []
            var offset = 0
            var previous: UInt64 = 0
            while offset < raw.count {
                guard let delta = Varint.read(raw, &offset), delta > 0, let count = Varint.read(raw, &offset), count <= UInt64(UInt32.max)
                else { return nil }
                let (sequence, overflow) = previous.addingReportingOverflow(delta)
                guard !overflow else { return nil }
                pending.append(PendingDelivery(sequence: sequence, deliveries: UInt32(count)))
                previous = sequence
            }
            return pending
        }
    }
}
