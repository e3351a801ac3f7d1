/// SQL over the `consumers` table, on whichever connection it is given.
///
/// A record is written against its stream's name and `created` time, so one saved after its stream
/// was deleted (or deleted and made again) is dropped rather than landing on another stream.
/// Thread-safety: stateless; callers own the connection.
enum ConsumerStore {
    private static let selectSQL = """
        SELECT c.name, c.start_kind, c.start_arg, c.ack_wait_ms, c.max_deliver, c.max_pending, c.dead_letter, c.next_seq, c.pending,
               s.name, s.created_us
        FROM consumers c JOIN streams s ON s.id = c.stream_id
        """
    private static let writeSQL = """
        INTO consumers (stream_id, name, start_kind, start_arg, ack_wait_ms, max_deliver, max_pending, dead_letter, next_seq, pending)
        SELECT id, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM streams WHERE name = ? AND created_us = ?
        """

    /// The consumers of stream `stream`, by name.
    static func load(stream: String, on connection: SQLiteConnection) throws(EventLogError) -> [ConsumerRecord] {
        let statement = try connection.statement(selectSQL + " WHERE s.name = ? ORDER BY c.name")
        defer { statement.reset() }
        statement.bind(1, stream)
        var records: [ConsumerRecord] = []
        while try statement.step() { records.append(try record(statement, path: connection.path)) }
        return records
    }

    /// Stores `record` unless its stream has a consumer of that name already (or is gone); whether it
    /// was stored.
    static func insert(_ record: ConsumerRecord, on connection: SQLiteConnection) throws(EventLogError) -> Bool {
        try write(record, verb: "INSERT OR IGNORE", on: connection)
    }

    /// Stores `record` over the consumer of that name; false when its stream is gone.
    static func save(_ record: ConsumerRecord, on connection: SQLiteConnection) throws(EventLogError) -> Bool {
        try write(record, verb: "INSERT OR REPLACE", on: connection)
    }

    /// Removes the consumer `name` of stream `stream`; whether there was one.
    static func delete(_ name: String, of stream: String, on connection: SQLiteConnection) throws(EventLogError) -> Bool {
        let statement = try connection.statement("DELETE FROM consumers WHERE stream_id = (SELECT id FROM streams WHERE name = ?) AND name = ?")
        statement.bind(1, stream)
        statement.bind(2, name)
        try statement.run()
        return connection.changes > 0
    }

    /// Removes every consumer of stream `id` (deleted: its id may be given to a new stream).
    static func forget(streamID id: Int64, on connection: SQLiteConnection) throws(EventLogError) {
        let statement = try connection.statement("DELETE FROM consumers WHERE stream_id = ?")
        statement.bind(1, id)
        try statement.run()
    }

    private static func write(_ record: ConsumerRecord, verb: String, on connection: SQLiteConnection) throws(EventLogError) -> Bool {
        let statement = try connection.statement(verb + " " + writeSQL)
        let config = record.config
        statement.bind(1, record.name)
        statement.bind(2, Int64(config.start.kind))
        statement.bind(3, config.start.argument)
        statement.bind(4, Int64(clamping: config.ackWaitMilliseconds))
        statement.bind(5, config.maxDeliver.map { Int64($0) })
        statement.bind(6, Int64(config.maxPending))
        statement.bind(7, config.deadLetter)
        statement.bind(8, Int64(clamping: record.nextSequence))
        statement.bind(10, record.stream)
        statement.bind(11, record.streamCreated)
        statement.bind(9, record.encodedPending)
        try statement.run()
        return connection.changes > 0
    }

    private static func record(_ statement: SQLiteStatement, path: String) throws(EventLogError) -> ConsumerRecord {
        let name = statement.text(0)
        let stream = statement.text(9)
        guard let start = StartPosition(kind: UInt8(truncatingIfNeeded: statement.int64(1)), argument: statement.int64(2)),
            let pending = ConsumerRecord.decodePending(Array(statement.blob(8)))
        else {
            throw EventLogError(
                .corruptDatabase, "the consumer \"\(name)\" of stream \"\(stream)\" is damaged in \(path); delete it and add it again.",
                path: path, stream: stream)
        }
        let config = ConsumerConfig(
            start: start, ackWait: .milliseconds(statement.int64(3)), maxDeliver: statement.optionalInt64(4).map { UInt32(clamping: $0) },
            maxPending: UInt32(clamping: statement.int64(5)), deadLetter: statement.isNull(6) ? nil : statement.text(6))
        return ConsumerRecord(
            stream: stream, streamCreated: statement.int64(10), name: name, config: config, nextSequence: UInt64(max(1, statement.int64(7))),
            pending: pending)
    }
}
