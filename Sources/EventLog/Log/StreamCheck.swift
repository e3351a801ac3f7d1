/// The checks `verify` makes of one stream's blocks against its catalog row, whichever database
/// holds them: header columns, CRC-32, decompression, framing, sequence continuity (no gap, no
/// overlap), timestamps, stored bytes and the terminal event.
///
/// Thread-safety: not Sendable; one per stream checked, on the checking thread.
package struct StreamCheck {
    private let state: StreamState
    private let decoder: BlockDecoder
    /// What the check found, in sequence order.
    package private(set) var problems: [VerifyReport.Problem] = []
    /// Blocks checked.
    package private(set) var blocks = 0
    /// Events decoded.
    package private(set) var events: UInt64 = 0

    package init(_ state: StreamState, decoder: BlockDecoder) {
        self.state = state
        self.decoder = decoder
    }

    /// Walks the stream's blocks, fetched a page at a time by `blocks` (from a sequence, at most so
    /// many, each handed to a body as `BlockStore.blocks` hands them; it returns the page's row count).
    package mutating func run(
        blocks fetch: (UInt64, Int, (BlockHeader?, UnsafeRawBufferPointer, Int64, Int64) throws -> Bool) throws -> Int
    ) throws {
        let state = self.state
        let decoder = self.decoder
        var problems: [VerifyReport.Problem] = []
        var blockCount = 0
        var eventCount: UInt64 = 0
        defer {
            self.problems += problems
            self.blocks += blockCount
            self.events += eventCount
        }
        func problem(_ range: ClosedRange<UInt64>?, _ message: String) {
            problems.append(.init(stream: state.name, sequences: range, message: message))
        }
        if state.firstSequence > state.lastSequence + 1 {
            problem(nil, "catalog's first retained sequence \(state.firstSequence) is past its last \(state.lastSequence) + 1")
        }
        var expected: UInt64?  // the first sequence the next block must start with
        var bytes: Int64 = 0
        var lastKind: LogEvent.Kind?
        var lastTimestamp = Int64.min
        while true {
            let from = expected ?? 0
            var rows = 0
            _ = try fetch(from, 64) {
                header, stored, rowFirst, rowLast in
                rows += 1
                blockCount += 1
                bytes += Int64(stored.count)
                guard let header else {
                    let range = UInt64(max(1, rowFirst))...UInt64(max(1, rowFirst, rowLast))
                    problem(range, "block has impossible header columns")
                    expected = range.upperBound + 1
                    return true
                }
                let range = header.sequences
                guard header.lastSequence >= header.firstSequence else {
                    problem(range, "block header is inverted (sequences \(header.firstSequence)...\(header.lastSequence))")
                    expected = max(expected ?? 0, header.firstSequence + 1)
                    return true
                }
                if let want = expected, header.firstSequence != want {
                    if header.firstSequence > want {
                        problem(want...(header.firstSequence - 1), "sequences missing: no block holds them")
                    } else {
                        problem(header.firstSequence...max(header.firstSequence, min(header.lastSequence, want - 1)), "blocks overlap: these sequences are stored twice")
                    }
                } else if expected == nil, header.firstSequence > state.firstSequence {
                    problem(state.firstSequence...(header.firstSequence - 1), "retained sequences missing before the first block")
                }
                if header.lastSequence - header.firstSequence + 1 != UInt64(header.count) || header.firstTimestamp > header.lastTimestamp {
                    problem(range, "block header is inconsistent (count \(header.count), timestamps \(header.firstTimestamp)...\(header.lastTimestamp))")
                }
                do {
                    _ = try decoder.decode(header, stored: stored, from: 0) { event in
                        eventCount += 1
                        lastKind = event.kind
                        if event.timestamp < lastTimestamp {
                            problem(event.sequence...event.sequence, "timestamp goes backwards")
                        }
                        lastTimestamp = event.timestamp
                        if event.kind != .value, event.sequence != state.lastSequence {
                            problem(event.sequence...event.sequence, "a terminal event is followed by more events")
                        }
                        return true
                    }
                } catch let error as EventLogError {
                    problem(range, error.message)
                    lastKind = nil
                }
                expected = header.lastSequence + 1
                return true
            }
            if rows < 64 { break }
        }
        let retained = state.lastSequence + 1 - min(state.firstSequence, state.lastSequence + 1)
        if let expected, expected != state.lastSequence + 1 {
            if expected <= state.lastSequence {
                problem(expected...state.lastSequence, "sequences missing at the end: the catalog says the last is \(state.lastSequence)")
            } else {
                problem((state.lastSequence + 1)...(expected - 1), "blocks hold sequences past the catalog's last \(state.lastSequence)")
            }
        } else if expected == nil, retained > 0 {
            problem(state.firstSequence...state.lastSequence, "retained sequences have no blocks")
        }
        if bytes != state.storedBytes {
            problem(nil, "catalog says \(state.storedBytes) stored bytes, the blocks hold \(bytes)")
        }
        if state.terminal != 0, retained > 0, let lastKind, lastKind.rawValue != state.terminal {
            problem(state.lastSequence...state.lastSequence, "catalog says the stream ended, but its last stored event is not terminal")
        }
    }
}

extension VerifyReport {
    /// The report of checking each of `streams` with `StreamCheck`, its blocks fetched a page at a time
    /// by `blocks` (the stream, from a sequence, at most so many, each block handed to a body), with
    /// the database-wide problems found `before` and `after` the streams' around theirs.
    package static func checking(
        _ streams: [StreamState], decoder: BlockDecoder, before: [Problem] = [], after: [Problem] = [],
        blocks fetch: (StreamState, UInt64, Int, (BlockHeader?, UnsafeRawBufferPointer, Int64, Int64) throws -> Bool) throws -> Int
    ) throws -> VerifyReport {
        var problems = before
        var blocks = 0
        var events: UInt64 = 0
        for state in streams {
            var check = StreamCheck(state, decoder: decoder)
            // Not escaping in fact: `fetch` calls `body` before it returns.
            try check.run { from, limit, body in try withoutActuallyEscaping(body) { try fetch(state, from, limit, $0) } }
            problems += check.problems
            blocks += check.blocks
            events += check.events
        }
        return VerifyReport(problems: problems + after, streamCount: streams.count, blockCount: blocks, eventCount: events)
    }
}
