import NIOCore
import Synchronization

/// The frames a connection's session writes, sent in the order the session wrote them, from
/// whichever thread it wrote them on.
///
/// A write on the channel's event loop goes out at once, after whatever other threads left here
/// before it: a publish committed on the loop is answered without a task on the loop's queue. A
/// write from another thread waits here, and the first one since the last send schedules one task
/// on the loop that sends all that has gathered by then.
/// Thread-safety: Sendable; `write` may be called from any thread, `send` on the loop only.
final class ReplyOutbox: Sendable {
    private let channel: any Channel
    private struct Waiting {
        var bytes: [UInt8] = []
        var sendScheduled = false
    }
    private let waiting = Mutex(Waiting())

    init(channel: any Channel) {
        self.channel = channel
    }

    /// Sends `frames` after everything written before.
    func write(_ frames: [UInt8]) {
        guard channel.eventLoop.inEventLoop else {
            let schedule = waiting.withLock { waiting -> Bool in
                if waiting.bytes.isEmpty { waiting.bytes = frames } else { waiting.bytes += frames }
                defer { waiting.sendScheduled = true }
                return !waiting.sendScheduled
            }
            if schedule { channel.eventLoop.execute { self.send() } }
            return
        }
        let earlier = takeWaiting(endingScheduledSend: false)
        if !earlier.isEmpty { channel.write(ByteBuffer(bytes: earlier), promise: nil) }
        channel.writeAndFlush(ByteBuffer(bytes: frames), promise: nil)
    }

    /// Sends what waits here. On the loop only.
    func send() {
        let bytes = takeWaiting(endingScheduledSend: true)
        if !bytes.isEmpty { channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil) }
    }

    /// The bytes waiting here, leaving none; a scheduled send that takes them ends its schedule.
    private func takeWaiting(endingScheduledSend: Bool) -> [UInt8] {
        waiting.withLock { waiting in
            if endingScheduledSend { waiting.sendScheduled = false }
            defer { waiting.bytes.removeAll() }
            return waiting.bytes
        }
    }
}
