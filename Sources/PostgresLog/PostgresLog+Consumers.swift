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
                try PostgresConsumers.insert(record, on: connection)
                return try PostgresConsumers.load(stream: record.stream, on: connection).first { $0.name == record.name } ?? record
            }
        }
    }

    /// Takes consumer `name` of `stream` under `lease` unless another daemon's lease on it runs.
    package func claimConsumer(_ name: String, of stream: String, under lease: ConsumerLease) throws -> ConsumerRecord? {
        try pool.withConnection { connection in try PostgresConsumers.claim(name, of: stream, under: lease, on: connection) }
    }

    /// Stores every record whose consumer `lease` holds, in one transaction, renewing the lease;
    /// returns those another daemon holds now (a record whose stream or consumer is gone is dropped).
    package func saveConsumers(_ records: [ConsumerRecord], under lease: ConsumerLease) throws -> [ConsumerRecord] {
        guard !records.isEmpty else { return [] }
        return try pool.withConnection { connection in
            try connection.transaction {
                var lost: [ConsumerRecord] = []
                for record in records where try !PostgresConsumers.save(record, under: lease, on: connection) {
                    if try PostgresConsumers.exists(record.name, of: record.stream, on: connection) { lost.append(record) }
                }
                return lost
            }
        }
    }

    /// Gives up `lease` on consumer `name` of `stream`, if it holds it.
    package func releaseConsumer(_ name: String, of stream: String, under lease: ConsumerLease) throws {
        try pool.withConnection { connection in try PostgresConsumers.release(name, of: stream, under: lease, on: connection) }
    }

    /// Removes consumer `name` of stream `stream`; whether there was one.
    package func deleteConsumer(_ name: String, of stream: String) throws -> Bool {
        try pool.withConnection { connection in try PostgresConsumers.delete(name, of: stream, on: connection) }
    }
}
