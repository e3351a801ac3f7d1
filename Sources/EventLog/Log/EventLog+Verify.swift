extension EventLog {
    /// Walks every stored block in one read snapshot and checks it: header columns, CRC-32,
    /// decompression, framing, sequence continuity (no gap, no overlap), and agreement with the
    /// catalog (positions, stored bytes, terminal event, blocks of unknown streams), plus SQLite's own
    /// `quick_check`. Problems are reported, never thrown; only failing to read at all throws.
    public func verify() throws -> VerifyReport {
        try readers.withReader { reader in
            let connection = reader.connection
            let marks = try? StreamMarks.openForReading(forDatabase: path)?.slots()
            try connection.execute("BEGIN")
            defer { try? connection.execute("COMMIT") }
            var problems: [VerifyReport.Problem] = []
            let integrity = try connection.text("PRAGMA quick_check")
            if integrity != "ok" {
                problems.append(.init(stream: nil, sequences: nil, message: "SQLite quick_check: \(integrity)"))
            }
            let orphans = try connection.integer("SELECT count(*) FROM blocks WHERE stream_id NOT IN (SELECT id FROM streams)")
            if orphans > 0 {
                problems.append(.init(stream: nil, sequences: nil, message: "\(orphans) blocks belong to no stream in the catalog"))
            }
            let misplaced = try connection.integer(
                "SELECT count(*) FROM blocks WHERE block_key != stream_id * \(BlockStore.keysPerStream) + last_seq")
            if misplaced > 0 {
                problems.append(.init(stream: nil, sequences: nil, message: "\(misplaced) blocks have a key that does not match their stream and last sequence"))
            }
            let streams = try StreamCatalog.loadAll(on: connection)
            return try VerifyReport.checking(streams, decoder: reader.decoder, before: problems, after: marksProblems(streams, slots: marks)) {
                state, from, limit, body in
                try BlockStore.blocks(of: state, atOrAfter: from, limit: limit, on: connection, body)
            }
        }
    }
}
