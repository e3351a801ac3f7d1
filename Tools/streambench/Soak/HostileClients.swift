import Foundation
import StreamProtocol

/// Clients that try to make the daemon hold memory, descriptors and time, each kind on a thread of
/// its own until `stop`: half-sent maximal frames, connections that idle (with and without a
/// handshake), publishes with oversized message ids, garbage bytes, and connect/disconnect storms.
/// Each counts what it did and how often the daemon closed on it.
///
/// Thread-safety: Sendable; the counters are atomic and each worker owns its descriptors.
final class HostileClients: Sendable {
    /// What one kind of hostile client did.
    final class Tally: Sendable {
        let name: String
        /// Connections opened (or requests sent, for the oversized ids).
        let attempts = SharedCount()
        /// Connections the daemon closed, or requests it refused.
        let refused = SharedCount()
        init(_ name: String) { self.name = name }
    }

    let tallies: [Tally]
    private let stopping = StopSignal()
    private let workers: [BackgroundWork<Void>]

    /// Starts every kind against the daemon at `socketPath`; `idleConnections` is how many idle
    /// connections to try to hold (half of them never say HELLO).
    init(socketPath: String, idleConnections: Int) {
        let half = Tally("half_sent_frames"), idle = Tally("idle_connections"), ids = Tally("oversized_ids")
        let garbage = Tally("garbage"), storm = Tally("connect_storm")
        tallies = [half, idle, ids, garbage, storm]
        let stopping = self.stopping
        workers = [
            BackgroundWork { Self.holdHalfSentFrames(socketPath, count: 40, tally: half, until: stopping) },
            BackgroundWork { Self.holdIdleConnections(socketPath, count: idleConnections, tally: idle, until: stopping) },
            BackgroundWork { try Self.publishOversizedIDs(socketPath, tally: ids, until: stopping) },
            BackgroundWork { Self.sendGarbage(socketPath, tally: garbage, until: stopping) },
            BackgroundWork { Self.storm(socketPath, tally: storm, until: stopping) },
        ]
    }

    /// Stops every worker, closing what it holds.
    func stop() throws {
        stopping.raise()
        for worker in workers { try worker.result(within: 30) }
    }

    private static let hello = (try? ClientMessage.hello(minVersion: 1, maxVersion: 1, clientName: "hostile").encoded(requestID: 1)) ?? []

    /// `count` connections, each sending HELLO and then all but the last MiB of a PUBLISH announced
    /// as a maximal (16 MiB) frame, as fast as the daemon reads it, and never the rest; one the
    /// daemon closes is opened again.
    private static func holdHalfSentFrames(_ path: String, count: Int, tally: Tally, until stopping: StopSignal) {
        let body = [UInt8](repeating: 7, count: Frame.defaultMaximumLength - (1 << 20))
        var frame = (try? ClientMessage.publish(.init(stream: "hostile", payload: body)).encoded(requestID: 2)) ?? []
        let announced = UInt32(Frame.defaultMaximumLength)
        for index in 0..<4 { frame[index] = UInt8(truncatingIfNeeded: announced >> (24 - 8 * UInt32(index))) }
        let bytes = hello + frame
        hold(path, count: count, tally: tally, until: stopping) { _ in bytes }
    }

    /// `count` connections that say nothing after connecting (every other one sends HELLO first).
    private static func holdIdleConnections(_ path: String, count: Int, tally: Tally, until stopping: StopSignal) {
        var opened = 0
        hold(path, count: count, tally: tally, until: stopping) { _ in
            opened += 1
            return opened % 2 == 0 ? hello : []
        }
    }

    /// One connection `hold` keeps, and how much of what it sends has gone out.
    private struct Held {
        var descriptor: pollfd
        let bytes: [UInt8]
        var sent = 0
    }

    /// Keeps up to `count` connections open, each sending the bytes `open` gives it as fast as the
    /// daemon takes them; every 100 ms it notes the ones the daemon closed and opens more (at most
    /// 100 a round, so refusals cannot turn into a storm of more than 1 000 connections a second).
    private static func hold(_ path: String, count: Int, tally: Tally, until stopping: StopSignal, open: (Int32) -> [UInt8]) {
        var held: [Held] = []
        defer { for connection in held { close(connection.descriptor.fd) } }
        while !stopping.isRaised {
            let round = monotonicNanoseconds()
            for _ in 0..<min(100, count - held.count) {
                guard let descriptor = try? BenchSocket.connected(to: path) else {
                    tally.refused.add(1)
                    continue
                }
                tally.attempts.add(1)
                held.append(Held(descriptor: pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), bytes: open(descriptor)))
            }
            for index in held.indices where held[index].sent < held[index].bytes.count {
                held[index].sent += max(0, sendWithoutWaiting(held[index].descriptor.fd, held[index].bytes[held[index].sent...]))
            }
            var descriptors = held.map(\.descriptor)
            _ = poll(&descriptors, nfds_t(descriptors.count), 100)
            var survivors: [Held] = []
            for (connection, polled) in zip(held, descriptors) {
                if polled.revents != 0, closedByDaemon(polled.fd) {
                    close(polled.fd)
                    tally.refused.add(1)
                } else {
                    survivors.append(connection)
                }
            }
            held = survivors
            // A round lasts 100 ms even when the daemon closes connections at once.
            sleep(untilNanoseconds: round + 100_000_000)
        }
    }

    /// Reads whatever the daemon sent (an ERROR, say); true when it has closed the connection.
    private static func closedByDaemon(_ descriptor: Int32) -> Bool {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &scratch, scratch.count, Int32(MSG_DONTWAIT))
            if count > 0 { continue }
            return !(count < 0 && errno == EAGAIN)
        }
    }

    /// Publishes with 60 KB message ids to three streams, one at a time.
    private static func publishOversizedIDs(_ path: String, tally: Tally, until stopping: StopSignal) throws {
        let client = try BenchSocket(path: path)
        var index = 0
        while !stopping.isRaised {
            index += 1
            let id = String(repeating: "i", count: 60_000 - String(index).count) + String(index)
            let reply = try client.request(.publish(.init(stream: "ids-\(index % 3)", messageID: id, payload: [1, 2, 3])))
            tally.attempts.add(1)
            if case .error = reply { tally.refused.add(1) }
        }
    }

    /// Connects, sends up to 64 KiB of random bytes (a random tail of one random block), and waits up to 100 ms for the daemon to close.
    private static func sendGarbage(_ path: String, tally: Tally, until stopping: StopSignal) {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }
        while !stopping.isRaised {
            guard let descriptor = try? BenchSocket.connected(to: path) else {
                tally.refused.add(1)
                usleep(10_000)
                continue
            }
            tally.attempts.add(1)
            let start = Int.random(in: 0..<noise.count, using: &generator)
            let bytes = Array(noise[start...])
            sendWithoutWaiting(descriptor, Bool.random(using: &generator) ? hello + bytes : bytes)
            var readable = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&readable, 1, 100) > 0 { tally.refused.add(1) }
            close(descriptor)
        }
    }

    /// Connects and closes at once, every other time after HELLO, about 2 000 times a second.
    private static func storm(_ path: String, tally: Tally, until stopping: StopSignal) {
        var count = 0
        while !stopping.isRaised {
            count += 1
            guard let descriptor = try? BenchSocket.connected(to: path) else {
                tally.refused.add(1)
                usleep(500)
                continue
            }
            tally.attempts.add(1)
            if count % 2 == 0 { sendWithoutWaiting(descriptor, hello) }
            close(descriptor)
            usleep(500)
        }
    }

    /// Writes what the socket takes now of `bytes`, never blocking; returns the count written.
    @discardableResult
    private static func sendWithoutWaiting(_ descriptor: Int32, _ bytes: some Collection<UInt8>) -> Int {
        bytes.withContiguousStorageIfAvailable { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            ?? Array(bytes).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
    }
}
