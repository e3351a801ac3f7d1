import ArgumentParser
import Foundation

/// How streamctl reads durations, sizes and times from the command line; every failure is a
/// `ValidationError` naming the option and the accepted forms. Stateless.
enum Parsing {
    private static let durationUnits: [(String, Double)] = [
        ("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000), ("w", 604_800_000),
    ]

    /// A duration such as `500ms`, `30s`, `10m`, `2h`, `1d`, `1w` (a bare number is seconds), in milliseconds.
    static func milliseconds(_ text: String, option: String) throws -> UInt64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        var number = trimmed
        var scale = 1_000.0
        for (unit, size) in durationUnits.sorted(by: { $0.0.count > $1.0.count }) where trimmed.hasSuffix(unit) {
            number = String(trimmed.dropLast(unit.count))
            scale = size
            break
        }
        guard let value = Double(number), value.isFinite, value > 0, value * scale >= 1, value * scale < 9e15 else {
            throw ValidationError("\(option) takes a positive duration such as 500ms, 30s, 10m, 2h, 1d or 1w (got \"\(text)\").")
        }
        return UInt64((value * scale).rounded())
    }

    /// A size such as `1048576`, `64K`, `10MiB`, `1G` (binary units: K = 1024), in bytes.
    static func bytes(_ text: String, option: String) throws -> UInt64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let (kibi, mebi, gibi, tebi) = (1_024.0, 1_048_576.0, 1_073_741_824.0, 1_099_511_627_776.0)
        let units: [(String, Double)] = [
            ("kib", kibi), ("mib", mebi), ("gib", gibi), ("tib", tebi), ("kb", kibi), ("mb", mebi), ("gb", gibi), ("tb", tebi),
            ("k", kibi), ("m", mebi), ("g", gibi), ("t", tebi), ("b", 1),
        ]
        var number = trimmed
        var scale = 1.0
        for (unit, size) in units where trimmed.hasSuffix(unit) {
            number = String(trimmed.dropLast(unit.count))
            scale = size
            break
        }
        guard let value = Double(number), value.isFinite, value * scale >= 1, value * scale < 9e18 else {
            throw ValidationError("\(option) takes a positive size such as 1048576, 64K, 10MiB or 1G (got \"\(text)\").")
        }
        return UInt64((value * scale).rounded())
    }

    /// A moment: ISO-8601 (`2026-11-21T17:40:00Z`, with fractional seconds or an offset; or a date
    /// `2026-11-21`, midnight UTC), a time ago (`10m`, `2h`, `30s`, `1d`), or `@SECONDS` since the epoch, in
    /// microseconds since the epoch. A bare number is refused: it could mean seconds ago or an epoch time.
    static func time(_ text: String, option: String, now: Date = Date()) throws -> Int64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("@") {
            guard let seconds = Double(trimmed.dropFirst()), seconds.isFinite, seconds >= 0, seconds < 9e12 else {
                throw ValidationError("\(option) @SECONDS takes seconds since the Unix epoch, such as @1795284351 (got \"\(text)\").")
            }
            return Int64((seconds * 1_000_000).rounded())
        }
        if Double(trimmed) != nil {
            throw ValidationError("""
                \(option) \(text) is a bare number, which could mean seconds ago or a moment: give a time ago with its unit \
                (30s, 10m, 2h), an ISO-8601 time (2026-11-21T17:40:00Z), or @\(trimmed) for seconds since the Unix epoch.
                """)
        }
        if let first = trimmed.first, first.isNumber, !trimmed.contains("-"), !trimmed.contains(":") {
            let ago = try milliseconds(trimmed, option: option)
            return Int64((now.timeIntervalSince1970 * 1_000_000).rounded()) - Int64(ago) * 1_000
        }
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime], [.withFullDate],
        ] {
            formatter.formatOptions = options
            if let date = formatter.date(from: trimmed) {
                return Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
            }
        }
        throw ValidationError(
            "\(option) takes an ISO-8601 time (2026-11-21T17:40:00Z, 2026-11-21T18:40:00+01:00, 2026-11-21), a time ago (30s, 10m, 2h, 1d) or @SECONDS since the epoch (got \"\(text)\").")
    }
}
