/// One append as the journal holds it: a stream (by id and life), the sequence of its first event, the
/// commit's timestamp, the kind of every event, the payloads and, if it has them, the events' message ids.
///
/// On disk (little-endian, see `Journal`):
///
/// ```
/// u32 body length   u32 CRC-32 of the generation (8 bytes) and the body
/// body: u8 kind, u8 flags, u16 0, u32 count, i64 stream id, i64 stream created, u64 first sequence,
///       i64 timestamp, then count × (u32 length, bytes),
///       then, if flags bit 0 is set, count × (u32 length or 0xFFFFFFFF for none, UTF-8 bytes)
/// ```
///
/// The generation is not stored in the record but folded into its checksum: after the journal starts
/// over (`Journal.reset`), a record left behind by an earlier generation fails its check, so a scan
/// never reads it as new.
///
/// Values are immutable and Sendable.
struct JournalRecord: Sendable, Equatable {
    var kind: LogEvent.Kind
    var streamID: Int64
    var streamCreated: Int64
    var firstSequence: UInt64
    var timestamp: Int64
    var payloads: [[UInt8]]
    /// One per payload, or empty when no event has one.
    var messageIDs: [String?] = []

    /// The bytes before the body: its length and checksum.
    static let prefixBytes = 8
    /// The body's fixed part, before the payloads.
    static let fixedBytes = 40

    /// The sequence of the last event.
    var lastSequence: UInt64 { firstSequence + UInt64(payloads.count) - 1 }

    /// Flags bit 0: message ids follow the payloads.
    private static let hasMessageIDs: UInt8 = 1
    /// The length written for an event without a message id.
    private static let noMessageID = UInt32.max

    /// The bytes of the record's body.
    private var bodyBytes: Int {
        Self.fixedBytes + payloads.reduce(0) { $0 + 4 + $1.count } + messageIDs.reduce(0) { $0 + 4 + ($1?.utf8.count ?? 0) }
    }
    /// The bytes the record takes in the journal.
    var size: Int { Self.prefixBytes + bodyBytes }

    /// Appends the record, checked under `generation`, to `buffer`.
    func encode(generation: UInt64, into buffer: inout [UInt8]) {
        let start = buffer.count
        let bodyBytes = self.bodyBytes
        buffer.reserveCapacity(start + Self.prefixBytes + bodyBytes)
        Self.put(UInt32(bodyBytes), into: &buffer)
        Self.put(UInt32(0), into: &buffer)
        buffer.append(kind.rawValue)
        buffer.append(messageIDs.isEmpty ? 0 : Self.hasMessageIDs)
        buffer.append(contentsOf: [0, 0])
        Self.put(UInt32(payloads.count), into: &buffer)
        Self.put(UInt64(bitPattern: streamID), into: &buffer)
        Self.put(UInt64(bitPattern: streamCreated), into: &buffer)
        Self.put(firstSequence, into: &buffer)
        Self.put(UInt64(bitPattern: timestamp), into: &buffer)
        for payload in payloads {
            Self.put(UInt32(payload.count), into: &buffer)
            buffer.append(contentsOf: payload)
        }
        for id in messageIDs {
            guard let id else {
                Self.put(Self.noMessageID, into: &buffer)
                continue
            }
            Self.put(UInt32(id.utf8.count), into: &buffer)
            buffer.append(contentsOf: id.utf8)
        }
        let crc = buffer.withUnsafeBytes { Self.checksum(generation: generation, body: UnsafeRawBufferPointer(rebasing: $0[(start + Self.prefixBytes)...])) }
        withUnsafeBytes(of: crc.littleEndian) { crcBytes in
            for index in 0..<4 { buffer[start + 4 + index] = crcBytes[index] }
        }
    }

    /// The record at the start of `bytes` and the bytes it takes, or nil if no whole record of
    /// `generation` starts there (the end of what was written, a torn write, or an older generation).
    static func decode(_ bytes: UnsafeRawBufferPointer, generation: UInt64) -> (record: JournalRecord, size: Int)? {
        guard bytes.count >= prefixBytes + fixedBytes else { return nil }
        let bodyBytes = Int(read(UInt32.self, bytes, at: 0))
        guard bodyBytes >= fixedBytes, bodyBytes <= bytes.count - prefixBytes else { return nil }
        let body = UnsafeRawBufferPointer(rebasing: bytes[prefixBytes..<(prefixBytes + bodyBytes)])
        guard read(UInt32.self, bytes, at: 4) == checksum(generation: generation, body: body),
            let kind = LogEvent.Kind(rawValue: body[0])
        else { return nil }
        let count = Int(read(UInt32.self, body, at: 4))
        var payloads: [[UInt8]] = []
        payloads.reserveCapacity(min(count, bodyBytes / 4))
        var offset = fixedBytes
        for _ in 0..<count {
            guard offset + 4 <= body.count else { return nil }
            let length = Int(read(UInt32.self, body, at: offset))
            offset += 4
            guard length <= body.count - offset else { return nil }
            payloads.append([UInt8](UnsafeRawBufferPointer(rebasing: body[offset..<(offset + length)])))
            offset += length
        }
        var messageIDs: [String?] = []
        if body[1] & hasMessageIDs != 0 {
            messageIDs.reserveCapacity(count)
            for _ in 0..<count {
                guard offset + 4 <= body.count else { return nil }
                let length = read(UInt32.self, body, at: offset)
                offset += 4
                if length == noMessageID {
                    messageIDs.append(nil)
                    continue
                }
                guard Int(length) <= body.count - offset else { return nil }
                messageIDs.append(String(decoding: UnsafeRawBufferPointer(rebasing: body[offset..<(offset + Int(length))]), as: UTF8.self))
                offset += Int(length)
            }
        }
        guard offset == body.count, count > 0 else { return nil }
        let record = JournalRecord(
            kind: kind, streamID: Int64(bitPattern: read(UInt64.self, body, at: 8)),
            streamCreated: Int64(bitPattern: read(UInt64.self, body, at: 16)),
            firstSequence: read(UInt64.self, body, at: 24), timestamp: Int64(bitPattern: read(UInt64.self, body, at: 32)),
            payloads: payloads, messageIDs: messageIDs)
        return (record, prefixBytes + bodyBytes)
    }

    private static func checksum(generation: UInt64, body: UnsafeRawBufferPointer) -> UInt32 {
        withUnsafeBytes(of: generation.littleEndian) { crc32Checksum(body, continuing: crc32Checksum($0)) }
    }

    private static func put<T: FixedWidthInteger>(_ value: T, into buffer: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
    }

    private static func read<T: FixedWidthInteger>(_ type: T.Type, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
