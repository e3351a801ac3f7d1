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
            var blocks = 0
            var events: UInt64 = 0
            let streams = try StreamCatalog.loadAll(on: connection)
            for state in streams {
                var check = StreamCheck(state, decoder: reader.decoder)
                try check.run { from, limit, body in
                    try BlockStore.blocks(of: state, atOrAfter: from, limit: limit, on: reader.connection, body)
                }
                problems += check.problems
                blocks += check.blocks
                events += check.events
            }
            problems += try marksProblems(streams, slots: marks)
            return VerifyReport(problems: problems, streamCount: streams.count, blockCount: blocks, eventCount: events)
        }
    }
}
