import EventLog
import StreamProtocol

/// Every reply fits the maximum frame length announced in `WELCOME` (schemas/protocol.md, "Limits"):
/// a `PUBLISH_BATCH` may carry no more entries than its `PUBLISHED_BATCH` can list, the listing comes
/// in pages, and a `VERIFY_REPORT` lists no more problems than fit. Thread-safe as the hub is: these
/// read its limits and the log's catalog, and hold no lock of their own.
extension StreamHub {
    /// The most entries one `PUBLISH_BATCH` may carry.
    var maximumBatchEntries: Int { FrameBounds.maximumBatchEntries(frameLength: limits.maximumFrameLength) }

    /// Refuses, before anything is stored, a batch whose reply would not fit one frame.
    func checkBatchSize(_ batch: ClientMessage.PublishBatch) throws {
        guard batch.entries.count > maximumBatchEntries else { return }
        throw ServerError(.invalidArgument, """
            PUBLISH_BATCH to "\(batch.stream)" carries \(batch.entries.count) events, more than the \(maximumBatchEntries) \
            whose PUBLISHED_BATCH fits one frame of \(limits.maximumFrameLength) bytes; nothing was stored: send them in \
            several batches.
            """)
    }

    /// The largest payload an event may have: the largest an `EVENTS` frame carrying it alone can hold.
    var maximumPayload: Int { FrameBounds.maximumPayload(frameLength: limits.maximumFrameLength) }

    /// Refuses, before anything is stored, a payload too large for an `EVENTS` frame of its own.
    func checkPayloads(_ payloads: some Sequence<[UInt8]>, to stream: String) throws {
        guard let large = payloads.first(where: { $0.count > maximumPayload }) else { return }
        throw ServerError(.invalidArgument, """
            an event of \(large.count) bytes for "\(stream)" is larger than the \(maximumPayload) bytes one EVENTS frame \
            of \(limits.maximumFrameLength) bytes can deliver; nothing was stored: publish smaller events.
            """)
    }

    /// One page of the streams named after `after`, by name: at most `limit`, and no more than fit
    /// one `STREAM_PAGE` frame; `more` says streams remain after the last one.
    func listStreams(
        after: String?, limit: UInt32, including listed: (String) -> Bool = { _ in true }
    ) throws -> (streams: [StreamInfo], more: Bool) {
        let names = try log.catalogEntries()
            .filter { info in (after.map { info.name > $0 } ?? true) && listed(info.name) }
            .sorted { $0.name < $1.name }
        var page: [StreamInfo] = []
        var bytes = FrameBounds.streamPageFixedLength
        for info in names {
            let size = FrameBounds.streamInfoMaximumLength(nameLength: info.name.utf8.count)
            // The first stream always fits: a name is at most 200 bytes.
            if page.count >= Swift.max(Int(limit), 1) || (!page.isEmpty && bytes + size > limits.maximumFrameLength) {
                return (page, true)
            }
            page.append(try served(log.describe(info)))
            bytes += size
        }
        return (page, false)
    }

    /// Every stream, for a `LIST_STREAMS` (version 1), refused when they do not fit one frame.
    func listAllStreams(including listed: (String) -> Bool = { _ in true }) throws -> [StreamInfo] {
        let (streams, more) = try listStreams(after: nil, limit: UInt32.max, including: listed)
        guard !more else {
            throw ServerError(.limitExceeded, """
                the streams do not fit one STREAM_LIST frame of \(limits.maximumFrameLength) bytes; list them in pages \
                with LIST_STREAMS_PAGE (protocol version 2; streamctl and the StreamClient library do).
                """)
        }
        return streams
    }

    /// `result` with no more problems than fit one `VERIFY_REPORT` frame; the ones left out are
    /// counted in a last problem that says how to see them.
    func bounded(_ result: VerifyResult) -> VerifyResult {
        // Header (6), streams (4), blocks (8), events (8), count (4); each problem at most its stream,
        // its range and its message, which is cut to 65 000 bytes on the wire.
        let fixed = Frame.headerLength + 4 + 8 + 8 + 4
        let note = 3 + StreamName.maximumLength + 17 + 2 + 200
        var bytes = fixed + note
        var kept: [VerifyResult.Problem] = []
        for problem in result.problems {
            let size = 3 + (problem.stream?.utf8.count ?? 0) + 17 + 2 + Swift.min(problem.message.utf8.count, 65_000)
            if bytes + size > limits.maximumFrameLength { break }
            kept.append(problem)
            bytes += size
        }
        guard kept.count < result.problems.count else { return result }
        var bounded = result
        let left = result.problems.count - kept.count
        bounded.problems = kept + [VerifyResult.Problem(stream: nil, sequences: nil, message: """
            \(left) more problem\(left == 1 ? " is" : "s are") not listed: the report would not fit one frame; \
            verify one stream at a time, or offline with `streamctl verify --db`.
            """)]
        return bounded
    }
}
