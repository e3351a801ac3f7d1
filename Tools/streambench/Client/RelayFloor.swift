import Foundation

/// The machine's own floor under the `latency` workload: the same count at the same rate, each a send
/// time written to a Unix socket, read by a relay thread (in the daemon's place) that writes it to a
/// second socket, read by a reader thread that notes how long it took. Two socket hops and three
/// threads, as publisher, daemon and subscriber have at the least, and nothing else: no framing, no
/// storage, no acknowledgement. Taken in the same run just before streamd's figure, it tells the part
/// of a tail that belongs to the machine (on a virtual machine, waking an idle processor goes through
/// the host) from the part that belongs to streamd.
enum RelayFloor {
    /// Sends `count` times, one every `interval` nanoseconds, and returns the percentiles of the time
    /// from send to read.
    static func latencies(count: Int, interval: UInt64) throws -> LatencyPercentiles {
        let (publisher, relayIn) = try socketPair()
        let (relayOut, readerIn) = try socketPair()
        let relay = BackgroundWork {
            defer { close(relayIn); close(relayOut) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let got = buffer.withUnsafeMutableBytes { read(relayIn, $0.baseAddress, $0.count) }
                guard got > 0 else { return }
                try writeAll(relayOut, Array(buffer[..<got]))
            }
        }
        let reader = BackgroundWork { () throws -> [Double] in
            defer { close(readerIn) }
            var latencies: [Double] = []
            latencies.reserveCapacity(count)
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while latencies.count < count {
                let got = buffer.withUnsafeMutableBytes { read(readerIn, $0.baseAddress, $0.count) }
                guard got > 0 else { throw BenchFailure("the relay floor's reader lost its socket after \(latencies.count) of \(count)") }
                let now = monotonicNanoseconds()
                pending += buffer[..<got]
                while pending.count >= 8 {
                    let sent = timestamp(from: pending)
                    latencies.append(Double(now - sent) / 1_000)
                    pending.removeFirst(8)
                }
            }
            return latencies
        }
        do {
            // Closing the publisher's end ends the relay once it has passed on everything.
            defer { close(publisher) }
            let start = monotonicNanoseconds()
            for index in 0..<count {
                sleep(untilNanoseconds: start + UInt64(index) * interval)
                try writeAll(publisher, timestampBytes(monotonicNanoseconds()))
            }
        }
        let latencies = try reader.result(within: 30)
        try relay.result(within: 30)
        return LatencyPercentiles(of: latencies)
    }

    private static func socketPair() throws -> (Int32, Int32) {
        var descriptors: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors) == 0 else {
            throw BenchFailure("socketpair failed: \(String(cString: strerror(errno)))")
        }
        return (descriptors[0], descriptors[1])
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw BenchFailure("the relay floor could not write: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }
}
