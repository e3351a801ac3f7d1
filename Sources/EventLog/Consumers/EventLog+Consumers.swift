extension EventLog {
    /// The durable consumers of stream `stream`, by name (none when there is no such stream).
    package func consumers(of stream: String) throws -> [ConsumerRecord] {
        try readers.withReader(catalog: true) { reader in try ConsumerStore.load(stream: stream, on: reader.connection) }
    }

    /// Adds `record` to its stream unless a consumer of that name exists; returns the consumer stored
    /// under the name (the new one, or the one there was), bound to the stream's current life.
    ///
    /// - Throws: `streamNotFound` when there is no such stream, or a storage error.
    package func addConsumer(_ record: ConsumerRecord) throws -> ConsumerRecord {
        try administer { writer in
            var record = record
            record.streamCreated = try writer.stream(record.stream).created
            _ = try ConsumerStore.insert(record, on: writer.connection)
            return try ConsumerStore.load(stream: record.stream, on: writer.connection).first { $0.name == record.name } ?? record
        }
    }

    /// The consumer `name` of `stream` as stored: one process owns the file, so every claim is granted.
    package func claimConsumer(_ name: String, of stream: String, under lease: ConsumerLease) throws -> ConsumerRecord? {
        try consumers(of: stream).first { $0.name == name }
    }

    /// Stores every record over its consumer, in one transaction; a record whose stream is gone (or
    /// is another life of the name) is dropped. No other process holds a lease here: none is lost.
    package func saveConsumers(_ records: [ConsumerRecord], under lease: ConsumerLease) throws -> [ConsumerRecord] {
        guard !records.isEmpty else { return [] }
        try administer { writer in
            for record in records { _ = try ConsumerStore.save(record, on: writer.connection) }
        }
        return []
    }

    /// Nothing to give up: the file has one process.
    package func releaseConsumer(_ name: String, of stream: String, under lease: ConsumerLease) throws {}

    /// Removes consumer `name` of stream `stream`; whether there was one.
    package func deleteConsumer(_ name: String, of stream: String) throws -> Bool {
        try administer { writer in try ConsumerStore.delete(name, of: stream, on: writer.connection) }
    }
}
