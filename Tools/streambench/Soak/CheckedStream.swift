import Foundation
import StreamProtocol

/// A well-behaved pair on a stream of its own: a publisher keeping 64 publishes in flight, and a
/// subscriber on another connection that checks every acknowledged event arrives once, in order.
/// The publisher goes as fast as it can, or at `pace` events a second when that is above zero.
///
/// Thread-safety: Sendable; each side runs on a thread of its own, and the counters are atomic.
final class CheckedStream: Sendable {
    let stream: String
    /// Events acknowledged so far.
    let acknowledged = SharedCount()
    /// Events received in order so far.
    let received = SharedCount()
    /// Events that arrived out of order or twice.
    let misordered = SharedCount()
    /// Events a second the publisher aims at; 0 for as fast as it can.
    let pace = SharedCount()
    private let stopping = StopSignal()
    /// Raised once the publisher has stopped and `acknowledged` is final.
    private let published = StopSignal()
    private let publisher: BackgroundWork<Void>
    private let subscriber: BackgroundWork<Void>

    /// Starts publishing `payload` to `stream` and reading it back, on `socketPath`.
    init(stream: String, socketPath: String, payload: [UInt8]) throws {
        self.stream = stream
        let publishing = try BenchSocket(path: socketPath)
        let reading = try BenchSocket(path: socketPath)
        _ = try publishing.request(.publish(.init(stream: stream, payload: payload)))
        acknowledged.add(1)
        let subscription = try BenchSubscription(socket: reading, stream: stream, from: .all)
        let stopping = self.stopping, published = self.published, acknowledged = self.acknowledged
        let received = self.received, misordered = self.misordered, pace = self.pace
        publisher = BackgroundWork {
            defer { published.raise() }
            // Paced in batches of a hundredth of a second's events, each sent at its due time from
            // when the pace last changed.
            var rate = 0, since = monotonicNanoseconds(), sent = 0
            while !stopping.isRaised {
                if pace.value != rate { (rate, since, sent) = (pace.value, monotonicNanoseconds(), 0) }
                let batch = rate > 0 ? max(1, rate / 100) : 500
                if rate > 0 {
                    let due = since + UInt64(sent) * 1_000_000_000 / UInt64(rate)
                    let now = monotonicNanoseconds()
                    if due > now { usleep(UInt32((due - now) / 1_000)) }
                }
                try publishing.publishPipelined(batch, payload: payload, to: stream, window: ClientBenchmark.window)
                acknowledged.add(batch)
                sent += batch
            }
        }
        subscriber = BackgroundWork {
            var readable = pollfd(fd: reading.descriptor, events: Int16(POLLIN), revents: 0)
            var next: UInt64 = 1
            // Reads until the publisher has stopped and every event it had acknowledged arrived.
            while !(published.isRaised && received.value >= acknowledged.value) {
                guard poll(&readable, 1, 200) > 0 else { continue }
                for frame in try reading.readFrames() {
                    try subscription.take(frame.message) { event in
                        if event.sequence == next {
                            next += 1
                            received.add(1)
                        } else {
                            misordered.add(1)
                        }
                    }
                }
            }
        }
    }

    /// Stops publishing and waits until the subscriber has every acknowledged event (or `seconds` pass).
    /// Returns the events acknowledged but never received.
    func finish(within seconds: Double) throws -> Int {
        stopping.raise()
        try publisher.result(within: seconds)
        try subscriber.result(within: seconds)
        return acknowledged.value - received.value
    }
}
