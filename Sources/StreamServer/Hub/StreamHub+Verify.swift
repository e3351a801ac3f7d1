import EventLog
import StreamProtocol

extension StreamHub {
    /// Runs the log's integrity check and reports its problems: all of them, or with `stream` only
    /// that stream's and the database-wide ones.
    ///
    /// The check always walks the whole log in one read snapshot (publishes go on meanwhile), so the
    /// stream, block and event figures are those of the whole log.
    func verify(_ stream: String?) throws -> VerifyResult {
        if let stream {
            try StreamName.validate(stream)
            guard try log.streamInfo(stream) != nil else { throw notFound(stream) }
        }
        let report = try log.verify()
        let problems = report.problems
            .filter { stream == nil || $0.stream == nil || $0.stream == stream }
            .map { VerifyResult.Problem(stream: $0.stream, sequences: $0.sequences, message: $0.message) }
        return VerifyResult(
            streams: UInt32(clamping: report.streamCount), blocks: UInt64(report.blockCount), events: report.eventCount,
            problems: problems)
    }
}
