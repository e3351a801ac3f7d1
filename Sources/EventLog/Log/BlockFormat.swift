/// The columns of one stored block row (everything but the payload).
package struct BlockHeader: Sendable, Equatable {
    package var firstSequence: UInt64
    package var lastSequence: UInt64
    package var firstTimestamp: Int64
    package var lastTimestamp: Int64
    package var count: Int
    package var codec: BlockCodec
    package var rawSize: Int
    package var crc: UInt32

    var sequences: ClosedRange<UInt64> { firstSequence...max(firstSequence, lastSequence) }

    package init(
        firstSequence: UInt64, lastSequence: UInt64, firstTimestamp: Int64, lastTimestamp: Int64, count: Int, codec: BlockCodec, rawSize: Int, crc: UInt32
    ) {
        self.firstSequence = firstSequence
        self.lastSequence = lastSequence
        self.firstTimestamp = firstTimestamp
        self.lastTimestamp = lastTimestamp
        self.count = count
        self.codec = codec
        self.rawSize = rawSize
        self.crc = crc
    }
}

extension BlockHeader {
    /// The header stored in a row's columns (first and last sequence, first and last timestamp, count,
    /// codec, raw size, CRC-32, in that order: `column(0)` to `column(7)`); nil when one is impossible.
    package init?(column: (Int) -> Int64) {
        let first = column(0), last = column(1), count = column(4), rawSize = column(6)
        guard first >= 1, last >= first - 1, count >= 0, count < 1 << 31, rawSize >= 0, rawSize < 1 << 31,
            let codec = BlockCodec(rawValue: column(5))
        else { return nil }
        self.init(
            firstSequence: UInt64(first), lastSequence: UInt64(last), firstTimestamp: column(2), lastTimestamp: column(3),
            count: Int(count), codec: codec, rawSize: Int(rawSize), crc: UInt32(truncatingIfNeeded: column(7)))
    }
}

/// How a block's payload is stored.
package enum BlockCodec: Int64, Sendable {
    case raw = 0
    case deflate = 1
}

/// Appends events in the block framing: kind byte, varint timestamp delta, varint length, bytes.
///
/// Thread-safety: not Sendable; one per writer or benchmark.
struct BlockFramer {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0
    private var previousTimestamp: Int64 = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func reset(firstTimestamp: Int64) {
        bytes.removeAll(keepingCapacity: true)
        count = 0
        previousTimestamp = firstTimestamp
    }

    mutating func append(kind: LogEvent.Kind, timestamp: Int64, payload: UnsafeRawBufferPointer) {
        bytes.append(kind.rawValue)
        Varint.append(UInt64(timestamp - previousTimestamp), to: &bytes)
        previousTimestamp = timestamp
        Varint.append(UInt64(payload.count), to: &bytes)
        bytes.append(contentsOf: payload)
        count += 1
    }

    /// Bytes one event adds to the framing.
    static func framedSize(payloadCount: Int) -> Int { payloadCount + 12 }
}

/// Checks and decodes stored blocks, reusing one inflater and one buffer.
///
/// Thread-safety: not Sendable; each reader owns one.
package final class BlockDecoder {
    private let inflater: Inflater
    private var buffer: [UInt8] = []

    package init() throws(EventLogError) { inflater = try Inflater() }

    /// Checks `stored` against `header` and calls `body` for each event with sequence ≥ `from`;
    /// returns false as soon as `body` does. A failed check throws `corruptBlock` naming the range.
    package func decode(
        _ header: BlockHeader, stored: UnsafeRawBufferPointer, from: UInt64,
        _ body: (LogEventView) throws -> Bool
    ) throws -> Bool {
        let crc = crc32Checksum(stored)
        guard crc == header.crc else {
            throw damaged(header, "CRC-32 of the stored bytes is \(crc), the block records \(header.crc)")
        }
        switch header.codec {
        case .raw:
            guard stored.count == header.rawSize else {
                throw damaged(header, "raw block is \(stored.count) bytes, the block records \(header.rawSize)")
            }
            return try walk(header, stored, from: from, body)
        case .deflate:
            guard header.rawSize >= 0, header.rawSize <= 1 << 30 else {
                throw damaged(header, "recorded raw size \(header.rawSize) is impossible")
            }
            if buffer.count < header.rawSize { buffer = [UInt8](repeating: 0, count: header.rawSize) }
            let rawSize = header.rawSize
            let problem = buffer.withUnsafeMutableBytes { out in
                inflater.decompress(stored, into: UnsafeMutableRawBufferPointer(rebasing: out[0..<rawSize]))
            }
            if let problem { throw damaged(header, problem) }
            return try buffer.withUnsafeBytes { raw in
                try walk(header, UnsafeRawBufferPointer(rebasing: raw[0..<rawSize]), from: from, body)
            }
        }
    }

    private func walk(
        _ header: BlockHeader, _ raw: UnsafeRawBufferPointer, from: UInt64, _ body: (LogEventView) throws -> Bool
    ) throws -> Bool {
        var offset = 0
        var sequence = header.firstSequence
        var timestamp = header.firstTimestamp
        var seen = 0
        while offset < raw.count {
            guard seen < header.count else { throw damaged(header, "holds more than the \(header.count) events it records") }
            guard let kind = LogEvent.Kind(rawValue: raw[offset]) else {
                throw damaged(header, "event \(sequence) has unknown kind \(raw[offset])")
            }
            offset += 1
            guard let delta = Varint.read(raw, &offset), let length = Varint.read(raw, &offset),
                length <= UInt64(raw.count - offset)
            else { throw damaged(header, "framing of event \(sequence) runs past the end of the block") }
            timestamp &+= Int64(bitPattern: delta)
            guard timestamp <= header.lastTimestamp else {
                throw damaged(header, "event \(sequence) has timestamp \(timestamp) after the block's last \(header.lastTimestamp)")
            }
            let end = offset + Int(length)
            if sequence >= from {
                let view = LogEventView(
                    sequence: sequence, timestamp: timestamp, kind: kind,
                    payload: UnsafeRawBufferPointer(rebasing: raw[offset..<end]))
                if try !body(view) { return false }
            }
            offset = end
            sequence += 1
            seen += 1
        }
        guard seen == header.count, sequence - 1 == header.lastSequence else {
            throw damaged(header, "holds \(seen) events, the block records \(header.count) (\(header.firstSequence)...\(header.lastSequence))")
        }
        return true
    }

    private func damaged(_ header: BlockHeader, _ reason: String) -> EventLogError {
        EventLogError(
            .corruptBlock,
            "the stored block of sequences \(header.firstSequence)...\(header.lastSequence) is damaged: \(reason); run verify, then truncate past the range or restore from a backup.",
            sequences: header.sequences)
    }
}

@available(*, unavailable)
extension BlockDecoder: Sendable {}
