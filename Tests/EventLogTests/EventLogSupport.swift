import Foundation
import Synchronization
import Testing
@testable import EventLog

/// A fresh directory under the system temp dir, removed when the value is released.
final class TemporaryDirectory: Sendable {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "eventlog-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A database path inside the directory.
    func file(_ name: String = "log.sqlite") -> String { path + "/" + name }
}

/// A JSON-like event of about 100 bytes, varying by `index`.
func samplePayload(_ index: Int) -> [UInt8] {
    let names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
    let text = "{\"type\":\"order.created\",\"id\":\(index),\"user\":\"\(names[index % names.count])-\(index % 977)\",\"amount\":\(index % 1000).\(index % 100),\"items\":\(index % 7)}"
    return Array(text.utf8)
}

/// Checks the events are `first...` in order, with no gap and no duplicate.
func expectContiguous(_ events: [LogEvent], from first: UInt64, sourceLocation: SourceLocation = #_sourceLocation) {
    for (offset, event) in events.enumerated() where event.sequence != first + UInt64(offset) {
        Issue.record("event at offset \(offset) has sequence \(event.sequence), expected \(first + UInt64(offset))", sourceLocation: sourceLocation)
        return
    }
}

/// `count` pseudo-random bytes that zlib cannot shrink (so a block stores about `count` bytes).
func incompressibleBytes(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return UInt8(truncatingIfNeeded: state)
    }
}

/// A clock the test moves by hand (microseconds since the epoch), for age limits and timestamps.
final class ManualClock: Sendable {
    private let time: Atomic<Int64>
    init(_ start: Int64 = 1_700_000_000_000_000) { time = Atomic(start) }
    var now: Int64 { time.load(ordering: .relaxed) }
    func advance(by microseconds: Int64) { time.add(microseconds, ordering: .relaxed) }
    func set(_ microseconds: Int64) { time.store(microseconds, ordering: .relaxed) }

    /// Log options that take their timestamps from this clock.
    func options(_ base: EventLogOptions = EventLogOptions()) -> EventLogOptions {
        var options = base
        options.clock = { [self] in now }
        return options
    }
}

/// Appends events of 2 000 incompressible bytes (event N made with seed N) to `stream` until the log
/// refuses one or `count` went in; returns the last sequence acknowledged and the refusal.
func appendUntilRefused(to stream: String, of log: EventLog, atMost count: Int) -> (acknowledged: UInt64, refusal: EventLogError?) {
    var acknowledged: UInt64 = 0
    for index in 0..<count {
        do {
            acknowledged = try log.append(incompressibleBytes(2_000, seed: UInt64(index + 1)), to: stream).sequence
        } catch {
            return (acknowledged, error as? EventLogError)
        }
    }
    return (acknowledged, nil)
}
