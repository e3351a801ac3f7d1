import EventLog

extension PostgresLog {
    /// The durable consumers of stream `stream`, by name (none when there is no such stream).
    package func consumers(of stream: String) throws -> [ConsumerRecord] {
        try pool.withConnection { connection in try PostgresConsumers.load(stream: stream, on: connection) }
    }

    /// Adds `record` to its stream unless a consumer of that name exists; returns the consumer stored
    /// under the name, bound to the stream's current life.
    package func addConsumer(_ record: ConsumerRecord) throws -> ConsumerRecord {
        try pool.withConnection { connection in
            try connection.transaction {
                var record = record
                guard let state = try PostgresCatalog.load(record.stream, on: connection) else { throw notFound(record.stream) }
                record.streamCreated = state.created
                try PostgresConsumers.write(record, replacing: false, on: connection)
                return try PostgresConsumers.load(stream: record.stream, on: connection).first { $0.name == record.name } ?? record
            }
        }
    }

    /// Stores every record over its consumer in one transaction, dropping any whose stream is gone.
    package func saveConsumers(_ records: [ConsumerRecord]) throws {
        guard !records.isEmpty else { return }
        try pool.withConnection { connection in
            try connection.transaction {
                for record in records { try PostgresConsumers.write(record, replacing: true, on: connection) }
            }
        }
    }

    /// Removes consumer `name` of stream `stream`; whether there was one.
    package func deleteConsumer(_ name: String, of stream: String) throws -> Bool {
        try pool.withConnection { connection in try PostgresConsumers.delete(name, of: stream, on: connection) }
    }
}
