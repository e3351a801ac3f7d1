import Foundation

/// A progress bar on standard error, drawn only when standard error is a terminal, at most ten times
/// a second, so pipes and log files never see it.
///
/// Not thread-safe: one task owns it.
final class Progress {
    /// What is counted: events, or bytes of input (shown as KiB, MiB, ...).
    enum Unit { case events, bytes }

    private let label: String
    private let total: UInt64?
    private let unit: Unit
    private let enabled: Bool
    private var lastDrawn = Date.distantPast
    private var drewAnything = false
    private var latest: UInt64 = 0

    /// A bar for `label`, counting `unit`, out of `total` when it is known.
    init(_ label: String, total: UInt64?, unit: Unit = .events) {
        self.label = label
        self.total = total
        self.unit = unit
        enabled = Output.errorIsTerminal
    }

    /// Redraws for `done` items, unless it was drawn less than 0.1 s ago.
    func update(_ done: UInt64, force: Bool = false) {
        latest = done
        guard enabled else { return }
        let now = Date()
        guard force || now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
        lastDrawn = now
        drewAnything = true
        var line = "\r\(label) "
        if let total, total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            let width = 30
            let filled = Int(fraction * Double(width))
            line += "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "]"
            line += " \(Int(fraction * 100))% \(amount(done))/\(amount(total))"
        } else {
            line += amount(done)
        }
        FileHandle.standardError.write(Data(line.utf8))
    }

    private func amount(_ count: UInt64) -> String {
        unit == .bytes ? Formatting.bytes(count) : "\(count)"
    }

    /// Draws the final state (`done`, else the last update) and ends the line.
    func finish(_ done: UInt64? = nil) {
        guard enabled else { return }
        update(done ?? latest, force: true)
        if drewAnything { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
