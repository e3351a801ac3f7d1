import EventLog
import StreamModel

/// SQL over `streamd.consumers`: what `ConsumerStore` is to the SQLite file, with the same columns.
///
/// A record is written against its stream's name and `created_us`, so one saved after its stream was
/// deleted (or deleted and made again) is dropped rather than landing on another stream.
/// Thread-safety: stateless; callers own the connection.
enum PostgresConsumers {
    private static let select = """
        SELECT c.name, c.start_kind, c.start_arg, c.ack_wait_ms, c.max_deliver, c.max_pending, c.dead_letter, c.next_seq, c.pending,
               s.name, s.created_us
        FROM streamd.consumers c JOIN streamd.streams s ON s.id = c.stream_id
        """

    /// The consumers of stream `stream`, by name.
    static func load(stream: String, on connection: PostgresConnection) throws(EventLogError) -> [ConsumerRecord] {
        let rows = try connection.execute(select + " WHERE s.name = $1 ORDER BY c.name", [.text(stream)])
        var records: [ConsumerRecord] = []
        for row in 0..<rows.count { records.append(try record(rows, row, connection: connection)) }
        return records
    }

    /// Stores `record` unless its stream has a consumer of that name (or is gone).
    static func insert(_ record: ConsumerRecord, on connection: PostgresConnection) throws(EventLogError) {
        let config = record.config
        try connection.execute(
            """
            INSERT INTO streamd.consumers (stream_id, name, start_kind, start_arg, ack_wait_ms, max_deliver, max_pending, dead_letter, next_seq, pending)
            SELECT id, $1, $2, $3, $4, $5, $6, $7, $8, $9 FROM streamd.streams WHERE name = $10 AND created_us = $11
            ON CONFLICT (stream_id, name) DO NOTHING
            """,
            [
                .text(record.name), .int16(Int16(config.start.kind)), .int64(config.start.argument), .int64(Int64(clamping: config.ackWaitMilliseconds)),
                .optional(config.maxDeliver.map { Int64($0) }), .int64(Int64(config.maxPending)), config.deadLetter.map { .text($0) } ?? .null,
                .int64(Int64(clamping: record.nextSequence)), .bytes(record.encodedPending), .text(record.stream), .int64(record.streamCreated),
            ])
    }

    /// Takes consumer `name` of `stream` under `lease` unless another owner's lease runs; the consumer
    /// as stored when it did, nil when it did not (or there is no such consumer).
    static func claim(_ name: String, of stream: String, under lease: ConsumerLease, on connection: PostgresConnection) throws(EventLogError) -> ConsumerRecord? {
        let rows = try connection.execute(
            """
            UPDATE streamd.consumers c SET owner = $3, lease_until = now() + $4 * interval '1 millisecond'
            FROM streamd.streams s WHERE s.id = c.stream_id AND s.name = $1 AND c.name = $2
                AND (c.owner IS NULL OR c.owner = $3 OR c.lease_until < now())
            RETURNING c.name, c.start_kind, c.start_arg, c.ack_wait_ms, c.max_deliver, c.max_pending, c.dead_letter, c.next_seq, c.pending,
                s.name, s.created_us
            """,
            [.text(stream), .text(name), .text(lease.owner), .int64(lease.milliseconds)])
        return rows.count == 0 ? nil : try record(rows, 0, connection: connection)
    }

    /// Stores the state of `record` over its consumer if `lease` holds it, renewing the lease; whether
    /// it did (false too when the stream or the consumer is gone).
    static func save(_ record: ConsumerRecord, under lease: ConsumerLease, on connection: PostgresConnection) throws(EventLogError) -> Bool {
        let rows = try connection.execute(
            """
            UPDATE streamd.consumers c SET next_seq = $3, pending = $4, lease_until = now() + $6 * interval '1 millisecond'
            FROM streamd.streams s WHERE s.id = c.stream_id AND s.name = $1 AND s.created_us = $7 AND c.name = $2 AND c.owner = $5
            RETURNING 1
            """,
            [
                .text(record.stream), .text(record.name), .int64(Int64(clamping: record.nextSequence)), .bytes(record.encodedPending),
                .text(lease.owner), .int64(lease.milliseconds), .int64(record.streamCreated),
            ])
        return rows.count > 0
    }

    /// Whether consumer `name` of `stream` still exists (a save it did not take may have found it gone).
    static func exists(_ name: String, of stream: String, on connection: PostgresConnection) throws(EventLogError) -> Bool {
        try connection.execute(
            "SELECT 1 FROM streamd.consumers c JOIN streamd.streams s ON s.id = c.stream_id WHERE s.name = $1 AND c.name = $2",
            [.text(stream), .text(name)]).count > 0
    }

    /// Gives up `lease` on consumer `name` of `stream`, if it holds it.
    static func release(_ name: String, of stream: String, under lease: ConsumerLease, on connection: PostgresConnection) throws(EventLogError) {
        try connection.execute(
            """
            UPDATE streamd.consumers c SET owner = NULL, lease_until = NULL
            FROM streamd.streams s WHERE s.id = c.stream_id AND s.name = $1 AND c.name = $2 AND c.owner = $3
            """,
            [.text(stream), .text(name), .text(lease.owner)])
    }

    /// Removes the consumer `name` of stream `stream`; whether there was one.
    static func delete(_ name: String, of stream: String, on connection: PostgresConnection) throws(EventLogError) -> Bool {
        let rows = try connection.execute(
            "DELETE FROM streamd.consumers WHERE stream_id = (SELECT id FROM streamd.streams WHERE name = $1) AND name = $2 RETURNING 1",
            [.text(stream), .text(name)])
        return rows.count > 0
    }

    private static func record(_ rows: PostgresResult, _ row: Int, connection: PostgresConnection) throws(EventLogError) -> ConsumerRecord {
        let name = rows.text(row, 0)
        let stream = rows.text(row, 9)
        guard let start = StartPosition(kind: UInt8(truncatingIfNeeded: rows.int64(row, 1)), argument: rows.int64(row, 2)),
            let pending = ConsumerRecord.decodePending(Array(rows.bytes(row, 8)))
        else {
            throw EventLogError(
                .corruptDatabase, "the consumer \"\(name)\" of stream \"\(stream)\" is damaged in PostgreSQL at \(connection.address); delete it and add it again.",
                stream: stream)
        }
        let config = ConsumerConfig(
            start: start, ackWait: .milliseconds(rows.int64(row, 3)), maxDeliver: rows.optionalInt64(row, 4).map { UInt32(clamping: $0) },
            maxPending: UInt32(clamping: rows.int64(row, 5)), deadLetter: rows.isNull(row, 6) ? nil : rows.text(row, 6))
        return ConsumerRecord(
            stream: stream, streamCreated: rows.int64(row, 10), name: name, config: config, nextSequence: UInt64(max(1, rows.int64(row, 7))),
            pending: pending)
    }
}
