import Foundation

extension EventLog {
    /// What `<db>.marks` says `verify` must report: a loss accepted when the log was opened
    /// (`acceptLostEvents`), and, for a log opened read-only, acknowledged events the database does
    /// not hold. (A writable log checked its marks when it opened; its writer moves them after every
    /// commit, so comparing them with a read snapshot could race.) `slots` were read before the snapshot.
    func marksProblems(_ streams: [StreamState], slots: [UInt8]?) throws -> [VerifyReport.Problem] {
        guard let marks = try StreamMarks.openForReading(forDatabase: path) else { return [] }
        var problems: [VerifyReport.Problem] = []
        if let loss = try marks.acceptedLoss() {
            problems.append(.init(
                stream: nil, sequences: nil,
                message: "the log went backwards and \(loss.events) acknowledged events were lost; it was opened accepting the loss at \(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(loss.at) / 1_000_000))) (\(marks.file.path)), and the streams skipped the lost sequences"))
        }
        if options.readOnly, try marks.hasMarks(), let slots {
            for loss in StreamMarks.losses(slots, against: streams) {
                problems.append(.init(
                    stream: loss.stream, sequences: loss.sequences,
                    message: "acknowledged events are not in the log (\(StreamMarks.describe(loss)), as \(marks.file.path) records): the log went backwards; opening it for writing will refuse until the loss is accepted"))
            }
        }
        return problems
    }
}
