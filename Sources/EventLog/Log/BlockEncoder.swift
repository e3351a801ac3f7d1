import Synchronization

/// A block framed and compressed before it has sequence numbers: its events' timestamp deltas are
/// all 0, because every event of one append gets the commit's timestamp, so only the row's columns
/// (first/last sequence and timestamp) are left for the writer to fill in.
package struct EncodedBlock: Sendable {
    package let count: Int
    package let rawSize: Int
    package let codec: BlockCodec
    package let crc: UInt32
    package let bytes: [UInt8]
}

/// Frames and compresses a large append on the appender's thread, so the single writer only inserts
/// rows: compression of big batches then runs in parallel with the writer's commits.
///
/// Thread-safety: not Sendable; `BlockEncoderPool` lends each one to one thread at a time.
package final class BlockEncoder {
    private var framer: BlockFramer
    private let deflater: Deflater
    private let maximumEvents: Int
    private let maximumBytes: Int

    package init(options: EventLogOptions) throws(EventLogError) {
        framer = BlockFramer(capacity: options.maximumBlockBytes + 64)
        deflater = try Deflater(level: options.compressionLevel)
        maximumEvents = options.maximumEventsPerBlock
        maximumBytes = options.maximumBlockBytes
    }

    /// The blocks for `payloads` (all `.value` events), split by the configured block limits.
    func encode(_ payloads: [[UInt8]]) -> [EncodedBlock] {
        encode(payloads.lazy.map { (LogEvent.Kind.value, $0) })
    }

    /// The blocks for `events`, each of its kind, split by the configured block limits.
    package func encode<Events: Sequence<(LogEvent.Kind, [UInt8])>>(_ events: Events) -> [EncodedBlock] {
        var blocks: [EncodedBlock] = []
        framer.reset(firstTimestamp: 0)
        for (kind, payload) in events {
            let framed = BlockFramer.framedSize(payloadCount: payload.count)
            if framer.count > 0, framer.count >= maximumEvents || framer.bytes.count + framed > maximumBytes {
                blocks.append(finish())
                framer.reset(firstTimestamp: 0)
            }
            payload.withUnsafeBytes { framer.append(kind: kind, timestamp: 0, payload: $0) }
        }
        if framer.count > 0 { blocks.append(finish()) }
        return blocks
    }

    private func finish() -> EncodedBlock {
        let count = framer.count
        return framer.bytes.withUnsafeBytes { raw in
            deflater.compress(raw) { packed in
                let stored = packed ?? raw
                return EncodedBlock(
                    count: count, rawSize: raw.count, codec: packed == nil ? .raw : .deflate,
                    crc: crc32Checksum(stored), bytes: Array(stored))
            }
        }
    }
}

@available(*, unavailable)
extension BlockEncoder: Sendable {}

/// Idle encoders, so each appender thread reuses a `z_stream` instead of setting one up per append.
///
/// Thread-safety: Sendable; the idle list sits behind a Mutex, and an encoder is used only by the
/// thread that took it until it is put back.
final class BlockEncoderPool: Sendable {
    /// Appends with at least this many events are encoded by the appender.
    static let minimumEvents = 32

    /// `@unchecked Sendable`: an encoder moves between threads through the pool but is never shared.
    private final class Entry: @unchecked Sendable {
        let encoder: BlockEncoder
        init(_ encoder: BlockEncoder) { self.encoder = encoder }
    }
    private let idle = Mutex<[Entry]>([])
    private let options: EventLogOptions

    init(options: EventLogOptions) { self.options = options }

    /// The blocks for `payloads`, or nil if no encoder could be made (the writer then encodes).
    func encode(_ payloads: [[UInt8]]) -> [EncodedBlock]? {
        guard let entry = idle.withLock({ $0.popLast() }) ?? (try? BlockEncoder(options: options)).map(Entry.init) else {
            return nil
        }
        let blocks = entry.encoder.encode(payloads)
        idle.withLock { if $0.count < 4 { $0.append(entry) } }
        return blocks
    }
}
