import Dispatch
import Synchronization

/// The replies to a connection's pipelined publishes, written in the order the requests came,
/// whatever order their commits answer in.
///
/// Each pipelined request takes a ticket when it is handed to the log; its reply is filed under the
/// ticket when the commit answers. Whoever files the reply that completes a run of consecutive
/// tickets writes that run, as one output, while the others only file theirs: so replies keep their
/// order, several become one socket write, and nothing is written under the lock. A ticket also
/// counts the payload bytes its request handed to the log until its commit answers, so the
/// connection can stop reading while too many wait (`bytesInFlight`).
/// Thread-safety: Sendable; `take` from the receiving thread, `file` from any committing thread.
final class OrderedReplies: Sendable {
    /// One request's place in the order, and the payload bytes it holds in the log's queue.
    struct Ticket: Sendable {
        fileprivate let index: Int
        fileprivate let bytes: Int
    }

    private struct State {
        var issued = 0
        var nextToWrite = 0
        var filed: [Int: [UInt8]] = [:]
        var writing = false
        var bytesInFlight = 0
    }

    private let state = Mutex(State())
    private let unanswered = DispatchGroup()

    /// A ticket for the next pipelined request, which hands `bytes` of payload to the log.
    func take(holding bytes: Int = 0) -> Ticket {
        unanswered.enter()
        return state.withLock { state in
            defer { state.issued += 1 }
            state.bytesInFlight += bytes
            return Ticket(index: state.issued, bytes: bytes)
        }
    }

    /// Payload bytes handed to the log whose commits have not answered yet.
    var bytesInFlight: Int { state.withLock { $0.bytesInFlight } }

    /// Files the encoded reply for `ticket`, and writes with `output` every reply now in order.
    func file(_ reply: [UInt8], for ticket: Ticket, output: ([UInt8]) -> Void) {
        var run = state.withLock { state -> (bytes: [UInt8], count: Int)? in
            state.bytesInFlight -= ticket.bytes
            state.filed[ticket.index] = reply
            guard !state.writing else { return nil }
            return Self.takeRun(&state)
        }
        while let (bytes, count) = run {
            output(bytes)
            // The writer role is given up before the waiters are let go, so they find the replies idle.
            run = state.withLock { Self.takeRun(&$0) }
            for _ in 0..<count { unanswered.leave() }
        }
    }

    /// Whether every ticket taken so far has had its reply written.
    var isIdle: Bool { state.withLock { $0.nextToWrite == $0.issued && !$0.writing } }

    /// Waits until every ticket taken so far has had its reply written.
    func waitUntilAnswered() {
        unanswered.wait()
    }

    /// The consecutive filed replies from the next one to write; claims the writer role while there
    /// are some and gives it up when there are none.
    private static func takeRun(_ state: inout State) -> (bytes: [UInt8], count: Int)? {
        var bytes: [UInt8] = []
        var count = 0
        while let reply = state.filed.removeValue(forKey: state.nextToWrite) {
            if count == 0 { bytes = reply } else { bytes += reply }
            state.nextToWrite += 1
            count += 1
        }
        state.writing = count > 0
        return count > 0 ? (bytes, count) : nil
    }
}
