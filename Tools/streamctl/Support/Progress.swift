import Foundation

/// A progress bar on standard error, drawn only when standard error is a terminal, at most ten times
/// a second, so pipes and log files never see it.
///
/// Not thread-safe: one task owns it.
final class Progress {
    private let label: String
    private let total: UInt64?
    private let enabled: Bool
    private var lastDrawn = Date.distantPast
    private var drewAnything = false

    /// A bar for `label`, out of `total` when it is known.
    init(_ label: String, total: UInt64?) {
        self.label = label
        self.total = total
        enabled = Output.errorIsTerminal
    }

    /// Redraws for `done` items, unless it was drawn less than 0.1 s ago.
    func update(_ done: UInt64, force: Bool = false) {
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
            line += String(format: " %3d%% %llu/%llu", Int(fraction * 100), done, total)
        } else {
            line += "\(done)"
        }
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Draws the final state and ends the line.
    func finish(_ done: UInt64) {
        guard enabled else { return }
        update(done, force: true)
        if drewAnything { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
