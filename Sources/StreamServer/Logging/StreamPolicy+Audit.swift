import StreamProtocol

extension StreamPolicy {
    /// The policy as the audit log shows it, e.g. "capacity 1000, max-age 60000 ms, max-bytes
    /// unlimited, default start beginning".
    var auditDetail: String {
        "capacity \(capacity.count.map(String.init) ?? "unlimited"), max-age \(maxAgeMilliseconds.map { "\($0) ms" } ?? "unlimited"), max-bytes \(maxBytes.map(String.init) ?? "unlimited"), default start \(replay), deduplication \(deduplicationDetail)"
    }

    private var deduplicationDetail: String {
        guard let window = deduplication else { return "default" }
        let events = window.events.map { "\($0) events" }
        let age = window.duration.map { "\($0.wholeMillisecondsRoundedUp) ms" }
        return [events, age].compactMap { $0 }.joined(separator: " and ")
    }
}
