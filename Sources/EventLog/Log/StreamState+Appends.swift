extension StreamState {
    /// Throws why `request` cannot be appended to this stream: it ends at another sequence than the
    /// request expects, it ended, its sequences would run out, an event is larger than
    /// `maximumEventBytes`, or its message ids are not one per event. `path` names the log in the error.
    package func check(_ request: AppendRequest, maximumEventBytes: Int, path: String) throws(EventLogError) {
        if let expected = request.expectedLastSequence, expected != lastSequence {
            throw EventLogError(
                .wrongLastSequence,
                "expected the last sequence of \"\(name)\" to be \(expected), but it is \(lastSequence); nothing was stored. Read the stream and retry with \(lastSequence).",
                path: path, stream: name, sequences: lastSequence...lastSequence)
        }
        if terminal != 0 {
            let how = terminal == LogEvent.Kind.completed.rawValue ? "completed" : "failed"
            throw EventLogError(
                .streamEnded,
                "stream \"\(name)\" \(how) at sequence \(lastSequence) and accepts no more events; delete it to start over.",
                path: path, stream: name)
        }
        if lastSequence + UInt64(request.payloads.count) > BlockStore.maximumSequence {
            throw EventLogError(
                .invalidArgument,
                "stream \"\(name)\" has reached sequence \(lastSequence), and sequences end at \(BlockStore.maximumSequence); copy what you need to a new stream.",
                path: path, stream: name)
        }
        for (index, payload) in request.payloads.enumerated() where payload.count > maximumEventBytes {
            throw EventLogError(
                .invalidArgument,
                "event \(index) of the append is \(payload.count) bytes, more than the \(maximumEventBytes) allowed; split it.",
                stream: name)
        }
        if !request.messageIDs.isEmpty, request.messageIDs.count != request.payloads.count {
            throw EventLogError(
                .invalidArgument,
                "an append gave \(request.messageIDs.count) message ids for \(request.payloads.count) events; give one per event, or none.",
                stream: name)
        }
    }

    /// Numbers `request`'s events after the stream's last, stamped `now` (or the stream's last
    /// timestamp, should the clock have gone back), and moves the stream past them; returns the receipt.
    package mutating func take(_ request: AppendRequest, at now: Int64) -> AppendReceipt {
        let timestamp = max(now, lastTimestamp)
        let first = lastSequence + 1
        lastSequence += UInt64(request.payloads.count)
        lastTimestamp = timestamp
        if request.kind != .value { terminal = request.kind.rawValue }
        return AppendReceipt(stream: name, firstSequence: first, lastSequence: lastSequence, timestamp: timestamp)
    }
}
