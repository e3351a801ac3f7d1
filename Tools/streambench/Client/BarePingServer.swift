import Foundation
import StreamProtocol

/// The transport's floor beside `ping`: the barest server this machine runs, one thread waiting in
/// `poll` for its few sockets (an event loop of the plainest kind, as Redis's is in `epoll`), answering
/// the benchmark client's `HELLO` and `PING` with one `read` and one `write` each and nothing more (no
/// SwiftNIO, no session, no limits). streamd's `PING` beside it shows what streamd's transport costs
/// per request, in time and in the server's CPU; the rest of a publish's cost is the publish's own.
///
/// Thread-safety: created and stopped on the benchmark's thread; the loop runs on a thread of its own
/// and shares nothing with it but the stop pipe and, once stopped, its counts.
final class BarePingServer: Sendable {
    /// What the loop did in its life: `PING`s answered, and its thread's CPU time.
    struct Work {
        var pings = 0
        var cpuSeconds = 0.0
    }

    /// The Unix socket it listens on.
    let socketPath: String
    /// The write end of the pipe whose read end the loop watches to stop.
    private let stopSignal: Int32
    private let loop: BackgroundWork<Work>

    /// Listens on `directory/bare.sock` and starts answering.
    init(directory: String) throws {
        let path = directory + "/bare.sock"
        socketPath = path
        unlink(path)
        let listener = try BenchSocket.unixSocket()
        let bound = BenchSocket.withUnixAddress(path) { bind(listener, $0, $1) }
        guard bound == 0, listen(listener, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(listener)
            throw BenchFailure("the bare server cannot listen on \(path): \(reason)")
        }
        var stopPipe: [Int32] = [0, 0]
        guard pipe(&stopPipe) == 0 else {
            close(listener)
            throw BenchFailure("pipe() failed: \(String(cString: strerror(errno)))")
        }
        stopSignal = stopPipe[1]
        let stopped = stopPipe[0]
        loop = BackgroundWork { try Self.serve(listener: listener, stopped: stopped) }
    }

    /// Ends the loop, closes every descriptor it opened, and returns what it did.
    func stop() throws -> Work {
        close(stopSignal)
        let work = try loop.result(within: 10)
        unlink(socketPath)
        return work
    }

    /// The loop: answers every connection until `stopped` (the stop pipe's read end) reads its end,
    /// then closes every descriptor it holds and returns what it did.
    private static func serve(listener: Int32, stopped: Int32) throws -> Work {
        // The bytes of a frame begun but not whole, for each open connection.
        var partial: [Int32: [UInt8]] = [:]
        var watched = [stopped, listener].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        defer {
            for entry in watched { close(entry.fd) }
        }
        let welcome = try ServerMessage.welcome(version: 1, maxFrameLength: 1 << 24, maxSubscriptions: 1, serverName: "bare").encoded(requestID: 0)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var replies: [UInt8] = []
        var work = Work()
        while true {
            let ready = poll(&watched, nfds_t(watched.count), -1)
            if ready < 0, errno == EINTR { continue }
            guard ready >= 0 else { throw BenchFailure("poll failed: \(String(cString: strerror(errno)))") }
            if watched[0].revents != 0 {
                var now = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
                work.cpuSeconds = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
                return work
            }
            if watched[1].revents != 0 {
                let connection = accept(listener, nil, nil)
                if connection >= 0 { watched.append(pollfd(fd: connection, events: Int16(POLLIN), revents: 0)) }
            }
            var closed: [Int32] = []
            for entry in watched[2...] where entry.revents != 0 {
                let descriptor = entry.fd
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else {
                    closed.append(descriptor)
                    continue
                }
                replies.removeAll(keepingCapacity: true)
                if let begun = partial.removeValue(forKey: descriptor) {
                    var bytes = begun + buffer[..<count]
                    let used = answer(bytes[...], welcome: welcome, into: &replies, counting: &work.pings)
                    bytes.removeFirst(used)
                    if !bytes.isEmpty { partial[descriptor] = bytes }
                } else {
                    let used = answer(buffer[..<count], welcome: welcome, into: &replies, counting: &work.pings)
                    if used < count { partial[descriptor] = Array(buffer[used..<count]) }
                }
                if !replies.isEmpty { _ = replies.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } }
            }
            for descriptor in closed {
                close(descriptor)
                partial[descriptor] = nil
                watched.removeAll { $0.fd == descriptor }
            }
        }
    }

    /// Appends to `replies` the answers to the whole frames at the front of `bytes` (`WELCOME` to
    /// `HELLO`, `PONG` with the nonce to `PING`, nothing to anything else) and returns how many bytes
    /// those frames took.
    private static func answer(_ bytes: ArraySlice<UInt8>, welcome: [UInt8], into replies: inout [UInt8], counting pings: inout Int) -> Int {
        var start = bytes.startIndex
        while bytes.endIndex - start >= 10 {
            let length = bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
            guard bytes.endIndex - start >= 4 + length else { break }
            let requestID = bytes[start + 6..<start + 10]
            switch bytes[start + 4] {
            case 0x01:
                replies += welcome[..<6]
                replies += requestID
                replies += welcome[10...]
            case 0x02:
                replies += [0, 0, 0, 14, 0x82, 0]
                replies += requestID
                replies += bytes[start + 10..<start + 18]
                pings += 1
            default:
                break
            }
            start += 4 + length
        }
        return start - bytes.startIndex
    }
}
