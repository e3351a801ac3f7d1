import Foundation
import StreamProtocol

extension BenchSocket {
    /// Publishes `count` events of `payload`, keeping `window` unanswered publishes in flight, the
    /// way the peers' benchmarks pipeline theirs (hiredis writes what it queued only when it has no
    /// reply left to read, and so does this); returns the last sequence acknowledged.
    @discardableResult
    func publishPipelined(_ count: Int, payload: [UInt8], to stream: String, window: Int) throws -> UInt64 {
        let template = PublishTemplate(stream: stream, payload: payload)
        var outgoing: [UInt8] = []
        var sent = 0, acknowledged = 0
        var last: UInt64 = 0
        while acknowledged < count {
            while sent < count, sent - acknowledged < window {
                template.append(requestID: UInt32(truncatingIfNeeded: sent + 1_000_000), to: &outgoing)
                sent += 1
            }
            var reply = try nextBuffered()
            if reply == nil {
                if !outgoing.isEmpty {
                    try write(outgoing)
                    outgoing.removeAll(keepingCapacity: true)
                }
                reply = try next()
            }
            switch reply?.message {
            case let .published(sequence, _, _):
                last = sequence
                acknowledged += 1
            case .events: continue
            case let other: throw BenchFailure("publish answered with \(String(describing: other))")
            }
        }
        return last
    }
}

extension BenchSocket {
    /// Reads until `count` publishes have been acknowledged (frames other than replies are skipped).
    func awaitPublished(_ count: Int) throws {
        var acknowledged = 0
        while acknowledged < count {
            for frame in try readFrames() {
                switch frame.message {
                case .published: acknowledged += 1
                case .events: continue
                case let other: throw BenchFailure("publish answered with \(other)")
                }
            }
        }
    }
}

/// One `PUBLISH` frame encoded once; each copy patches only its request id (and, for latency
/// probes, the first payload bytes).
struct PublishTemplate {
    private let frame: [UInt8]
    private let payloadCount: Int

    init(stream: String, payload: [UInt8]) {
        // A message built from valid constants; encoding it cannot fail.
        frame = (try? ClientMessage.publish(.init(stream: stream, payload: payload)).encoded(requestID: 0)) ?? []
        payloadCount = payload.count
    }

    /// Appends the frame with `requestID`, its payload starting with `prefix`, to `bytes`.
    func append(requestID: UInt32, payloadPrefix prefix: [UInt8] = [], to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: frame)
        for index in 0..<4 { bytes[start + 6 + index] = UInt8(truncatingIfNeeded: requestID >> (24 - 8 * UInt32(index))) }
        let payloadStart = bytes.count - payloadCount
        for (index, byte) in prefix.prefix(payloadCount).enumerated() { bytes[payloadStart + index] = byte }
    }
}
