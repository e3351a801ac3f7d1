import Foundation
import StreamProtocol

/// How streamctl shows numbers, sizes, times and policies to people. Stateless.
enum Formatting {
    /// Microseconds since the epoch as ISO-8601 UTC with microseconds, e.g. `2026-11-21T17:40:01.123456Z`.
    static func time(_ microseconds: Int64) -> String {
        let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
        let fraction = microseconds - seconds * 1_000_000
        var moment = time_t(seconds)
        var parts = tm()
        gmtime_r(&moment, &parts)
        // By hand rather than String(format:): tail and export format one time per event.
        func digits(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        return "\(digits(Int(parts.tm_year) + 1900, 4))-\(digits(Int(parts.tm_mon) + 1, 2))-\(digits(Int(parts.tm_mday), 2))"
            + "T\(digits(Int(parts.tm_hour), 2)):\(digits(Int(parts.tm_min), 2)):\(digits(Int(parts.tm_sec), 2)).\(digits(Int(fraction), 6))Z"
    }

    /// How long ago `microseconds` (since the epoch) was, as of `now`: `just now` (under a second, or a
    /// moment ahead of this machine's clock), `42 s ago`, `5 min ago`, `3 h ago` (up to 48 hours), `12 d ago`.
    static func ago(_ microseconds: Int64, now: Date = Date()) -> String {
        let seconds = (now.timeIntervalSince1970 * 1_000_000 - Double(microseconds)) / 1_000_000
        guard seconds >= 1 else { return "just now" }
        let whole = Int64(seconds)
        if whole < 60 { return "\(whole) s ago" }
        if whole < 3_600 { return "\(whole / 60) min ago" }
        if whole < 48 * 3_600 { return "\(whole / 3_600) h ago" }
        return "\(whole / 86_400) d ago"
    }

    /// A byte count in binary units: `512 B`, `1.5 KiB`, `20.0 MiB`.
    static func bytes(_ count: UInt64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// Milliseconds as the shortest exact duration streamctl also reads: `500ms`, `30s`, `10m`, `2h`, `1d`.
    static func duration(milliseconds: UInt64) -> String {
        for (unit, size) in [("d", UInt64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1_000)] where milliseconds % size == 0 {
            return "\(milliseconds / size)\(unit)"
        }
        return "\(milliseconds)ms"
    }

    /// Uptime like `3d 4h`, `5m 3s`, `12s`.
    static func uptime(milliseconds: UInt64) -> String {
        let seconds = milliseconds / 1_000
        let (days, hours, minutes, rest) = (seconds / 86_400, seconds / 3_600 % 24, seconds / 60 % 60, seconds % 60)
        if days > 0 { return "\(days)d \(hours)h" }
        if hours > 0 { return "\(hours)h \(minutes)m" }
        if minutes > 0 { return "\(minutes)m \(rest)s" }
        return "\(rest)s"
    }

    /// `sequence 5` or `sequences 1...3`.
    static func sequences(_ first: UInt64, _ last: UInt64) -> String {
        first == last ? "sequence \(first)" : "sequences \(first)...\(last)"
    }

    /// `1 event`, `3 events`.
    static func count(_ value: UInt64, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }

    /// A rate with one decimal: `0.0/s`, `1523.4/s`.
    static func rate(_ perSecond: Double) -> String { String(format: "%.1f/s", perSecond) }

    /// Stored bytes over raw bytes, or nil when nothing is stored.
    static func ratio(stored: UInt64, raw: UInt64) -> Double? {
        raw == 0 ? nil : (Double(stored) / Double(raw) * 1_000).rounded() / 1_000
    }

    /// A policy in words: `unlimited`, `capacity 1000, max age 1h, max bytes 10.0 MiB, dedup within 2m`.
    static func policy(_ policy: StreamPolicy) -> String {
        var parts: [String] = []
        switch policy.capacity.count {
        case nil: parts.append("unlimited")
        case 1?: parts.append("replay-last")
        case let count?: parts.append("capacity \(count)")
        }
        if let age = policy.maxAgeMilliseconds { parts.append("max age \(duration(milliseconds: age))") }
        if let bytes = policy.maxBytes { parts.append("max bytes \(Self.bytes(bytes))") }
        if let window = policy.deduplication { parts.append(deduplication(window)) }
        return parts.joined(separator: ", ")
    }

    /// A stream's own de-duplication window in words: `dedup over the last 5000 events within 2m`.
    static func deduplication(_ window: DeduplicationWindow) -> String {
        guard window.events != 0 else { return "no dedup" }
        let events = window.events.map { " over the last \($0) events" } ?? ""
        let age = window.duration.map { " within \(duration(milliseconds: $0.wholeMillisecondsRoundedUp))" } ?? ""
        return "dedup" + events + age
    }

    /// A start position as a word: `all`, `last 10`, `new`.
    static func start(_ start: StartPosition) -> String {
        switch start {
        case .streamDefault: "default"
        case .all: "all"
        case let .last(count): "last \(count)"
        case let .from(sequence: sequence): "from \(sequence)"
        case let .since(microseconds): "since \(time(microseconds))"
        case .newOnly: "new"
        }
    }

    /// The state's name: `open`, `completed`, `failed`.
    static func state(_ state: StreamInfo.State) -> String {
        switch state {
        case .open: "open"
        case .completed: "completed"
        case .failed: "failed"
        }
    }

    /// Rows as left-aligned columns separated by two spaces (the last column is not padded).
    static func table(_ rows: [[String]]) -> String {
        guard let width = rows.map(\.count).max() else { return "" }
        var widths = [Int](repeating: 0, count: width)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
