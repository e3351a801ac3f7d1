import Foundation
import NIOCore
import Synchronization

/// The frames a connection's session writes, sent in the order the session wrote them, from
/// whichever thread it wrote them on.
///
/// The outbox holds a descriptor of the connection's socket of its own (a duplicate, taken when the
/// connection is accepted): a write that finds nothing waiting goes to the socket at once, with one
/// `send`, on the thread that wrote it (the event loop, the log's writer, a subscription's thread),
/// so a reply committed off the loop reaches the client without waking the loop. What the socket does
/// not take at once (the client reads slowly), and every write after it until that has gone out, is
/// handed to the channel on its event loop, which sends it when the socket has room and counts it
/// against the channel's write buffer limits, so backpressure works as it does for any channel.
/// A channel that exposes no socket (or a connection for which no descriptor was left) has every
/// write handed to the channel.
///
/// The duplicate keeps the socket open until the outbox closes it, once the channel has closed: a
/// write never meets a descriptor number the process has reused for another connection. A write the
/// channel fails (it closed with bytes unsent, or the socket failed) closes the duplicate at once, so
/// that no later frame goes straight out behind a frame that was cut off.
/// Each write is noted as activity for the daemon's wake latency keepers, however it goes out.
///
/// The outbox is backed up (`isBackedUp`) from when more than `highWater` bytes written wait for the
/// socket (here or in the channel) until they are down to `lowWater` (the channel's own write-buffer
/// marks), and says so (`whenDrained`): the session handles no more requests meanwhile, so a client
/// that does not read its replies cannot make the daemon hold more of them.
/// Thread-safety: Sendable; `write` may be called from any thread, `send` on the loop only; the state
/// is under one mutex, held during a direct `send` so that writers keep their order.
final class ReplyOutbox: Sendable {
    /// The channel's write-buffer marks (`StreamServer` sets them), and the outbox's.
    static let highWater = 1 << 20
    static let lowWater = 256 << 10

    private let channel: any Channel
    private struct State {
        /// The outbox's own descriptor of the socket; nil when it has none or once the channel closed.
        var descriptor: Int32?
        /// Bytes written and not yet handed to the socket or the channel.
        var waiting: [UInt8] = []
        var sendScheduled = false
        /// Bytes handed to the channel that it has not finished writing.
        var bytesWithChannel = 0
        /// Told on the event loop each time the outbox is no longer backed up.
        var drained: (@Sendable () -> Void)?

        /// Bytes written and not taken by the socket yet.
        var backlog: Int { waiting.count + bytesWithChannel }

        /// Closes the outbox's own descriptor, if it still has one.
        mutating func closeDescriptor() {
            if let descriptor { Foundation.close(descriptor) }
            descriptor = nil
        }
    }
    private let state: Mutex<State>
    /// Changed under the state's lock; read without it (once per request).
    private let backedUp = Atomic<Bool>(false)
    private let keepers: [any WakeLatencyKeeper]

    /// The outbox of `channel`, noting each write for `keepers`; created on its event loop, it
    /// writes to its socket directly.
    init(channel: any Channel, keepers: [any WakeLatencyKeeper] = []) {
        self.channel = channel
        self.keepers = keepers
        let descriptor = Self.duplicateSocket(of: channel)
        state = Mutex(State(descriptor: descriptor))
        if descriptor != nil {
            channel.closeFuture.whenComplete { [self] _ in
                state.withLock { $0.closeDescriptor() }
            }
        }
    }

    /// Sends `frames` after everything written before.
    func write(_ frames: [UInt8]) {
        for keeper in keepers { keeper.noteActivity() }
        let schedule = state.withLock { state -> Bool in
            if let descriptor = state.descriptor, state.backlog == 0 {
                let sent = Self.send(frames, to: descriptor)
                if sent == frames.count { return false }
                state.waiting = Array(frames[sent...])
            } else if state.waiting.isEmpty {
                state.waiting = frames
            } else {
                state.waiting += frames
            }
            if state.backlog > Self.highWater { backedUp.store(true, ordering: .releasing) }
            defer { state.sendScheduled = true }
            return !state.sendScheduled
        }
        guard schedule else { return }
        if channel.eventLoop.inEventLoop { send() } else { channel.eventLoop.execute { self.send() } }
    }

    /// Hands what waits here to the channel. On the loop only.
    func send() {
        let bytes = state.withLock { state -> [UInt8] in
            state.sendScheduled = false
            defer { state.waiting = [] }
            state.bytesWithChannel += state.waiting.count
            return state.waiting
        }
        guard !bytes.isEmpty else { return }
        channel.writeAndFlush(ByteBuffer(bytes: bytes)).whenComplete { [self] result in
            let drained = state.withLock { state -> (@Sendable () -> Void)? in
                state.bytesWithChannel -= bytes.count
                if case .failure = result { state.closeDescriptor() }
                guard backedUp.load(ordering: .relaxed), state.backlog <= Self.lowWater else { return nil }
                backedUp.store(false, ordering: .releasing)
                return state.drained
            }
            drained?()
        }
    }

    /// Whether more than `highWater` bytes written wait for the socket, and have not come down to
    /// `lowWater` since.
    var isBackedUp: Bool { backedUp.load(ordering: .acquiring) }

    /// Bytes written and not taken by the socket yet.
    var backlog: Int { state.withLock { $0.backlog } }

    /// Calls `action` on the event loop each time the outbox stops being backed up (nil: no more).
    func whenDrained(_ action: (@Sendable () -> Void)?) {
        state.withLock { $0.drained = action }
    }

    /// How many of `bytes` the socket took at once: all, or fewer when it is full (the rest waits for
    /// the channel) or failed (the channel's own write meets the failure and closes it).
    private static func send(_ bytes: [UInt8], to descriptor: Int32) -> Int {
        writeWhole(bytes) { bytes, count in Foundation.send(descriptor, bytes, count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    /// A duplicate of `channel`'s socket descriptor, or nil off its event loop, for a channel that
    /// exposes no socket, or when the process has no descriptor left.
    private static func duplicateSocket(of channel: any Channel) -> Int32? {
        guard channel.eventLoop.inEventLoop,
            let socket = try? channel.pipeline.syncOperations.withUnsafeTransportIfAvailable(of: NIOBSDSocket.Handle.self, { $0 })
        else { return nil }
        let duplicate = fcntl(socket, F_DUPFD_CLOEXEC, 0)
        return duplicate >= 0 ? duplicate : nil
    }
}
