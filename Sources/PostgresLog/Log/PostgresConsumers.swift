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

    /// Stores `record`, over the consumer of that name when `replacing`, else only if there is none.
    static func write(_ record: ConsumerRecord, replacing: Bool, on connection: PostgresConnection) throws(EventLogError) {
        let config = record.config
        let conflict = replacing
            ? """
            DO UPDATE SET start_kind = excluded.start_kind, start_arg = excluded.start_arg, ack_wait_ms = excluded.ack_wait_ms,
                max_deliver = excluded.max_deliver, max_pending = excluded.max_pending, dead_letter = excluded.dead_letter,
                next_seq = excluded.next_seq, pending = excluded.pending
            """
            : "DO NOTHING"
        try connection.execute(
            """
            INSERT INTO streamd.consumers (stream_id, name, start_kind, start_arg, ack_wait_ms, max_deliver, max_pending, dead_letter, next_seq, pending)
            SELECT id, $1, $2, $3, $4, $5, $6, $7, $8, $9 FROM streamd.streams WHERE name = $10 AND created_us = $11
            ON CONFLICT (stream_id, name) \(conflict)
            """,
            [
                .text(record.name), .int16(Int16(config.start.kind)), .int64(config.start.argument), .int64(Int64(clamping: config.ackWaitMilliseconds)),
                .optional(config.maxDeliver.map { Int64($0) }), .int64(Int64(config.maxPending)), config.deadLetter.map { .text($0) } ?? .null,
                .int64(Int64(clamping: record.nextSequence)), .bytes(record.encodedPending), .text(record.stream), .int64(record.streamCreated),
            ])
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
