import EventLog
import StreamProtocol

extension StreamHub {
    /// Gives the space deletions freed inside the database back to the file system now (see
    /// `EventLog.compact()`): in steps between commits for a log made by this build, in one full
    /// rewrite, holding every write until it ends, for a log made before.
    func compact() throws -> ServerMessage.Compaction {
        let report = try log.compact()
        return ServerMessage.Compaction(
            bytesBefore: UInt64(max(0, report.bytesBefore)), bytesAfter: UInt64(max(0, report.bytesAfter)),
            rewrote: report.rewrote, milliseconds: UInt64(max(0, report.milliseconds)))
    }
}
