import Foundation
import Reactive
import StreamClient
import StreamdTestSupport
import Synchronization

/// Collects a subscription's events so a test can wait until a condition on them holds.
final class Collector: Sendable {
    private let state = Mutex<[Event<StoredEvent, StreamClientError>]>([])

    /// An observer appending to this collector.
    var observer: Observer<StoredEvent, StreamClientError> { Observer { [self] event in state.withLock { $0.append(event) } } }

    var events: [Event<StoredEvent, StreamClientError>] { state.withLock { $0 } }
    var values: [StoredEvent] { events.compactMap(\.value) }
    var count: Int { state.withLock { $0.count { $0.value != nil } } }
    var terminal: Event<StoredEvent, StreamClientError>? { events.last.flatMap { $0.isTerminating ? $0 : nil } }

    /// Waits until `count` values have arrived (or the subscription ended); returns whether they did.
    @discardableResult
    func waitForValues(_ count: Int) async -> Bool {
        await eventually { self.count >= count || self.terminal != nil }
        return self.count >= count
    }
}

/// Bytes of a short string, for payloads.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The text of a payload.
func text(_ payload: [UInt8]) -> String { String(decoding: payload, as: UTF8.self) }

/// The resident memory of process `pid` in KiB, from `/proc/PID/status` (`VmRSS`).
func residentKiB(of pid: Int32) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    else { throw TestFailure("no VmRSS in /proc/\(pid)/status") }
    return kib
}

/// Asserts, by throwing, that the sequences are exactly `range` in order (no gap, no duplicate), and
/// names the first place where they are not.
func requireContiguous(_ sequences: [UInt64], _ range: ClosedRange<UInt64>, _ who: String) throws {
    if sequences.elementsEqual(range) { return }
    let firstBad = sequences.indices.first { $0 >= range.count || sequences[$0] != range.lowerBound + UInt64($0) } ?? sequences.count
    let around = sequences[max(0, firstBad - 2)..<min(sequences.count, firstBad + 3)]
    throw TestFailure("\(who): \(sequences.count) events, expected \(range); first difference at index \(firstBad): \(Array(around))")
}

/// A value under a mutex, in a class so that escaping and sending closures can share it.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    /// The value now.
    var value: Value { mutex.withLock { $0 } }

    /// Changes the value under the lock and returns what `body` returns.
    @discardableResult
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
}
