import Dispatch
import Foundation
import NIOCore
import NIOPosix
import StreamdTestSupport
import Testing

@testable import StreamServer

/// A connection's outbox sends frames in the order they were written, from the event loop and from
/// other threads at once, over a real socket pair; straight to the socket while it takes them, through
/// the channel while the reader lags.
@Suite struct ReplyOutboxTests {
    /// One end of a socket pair as a NIO socket channel with its outbox (made on the loop, as the
    /// server makes it), the other end read here with blocking reads.
    private final class Pair: Sendable {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let channel: any Channel
        let outbox: ReplyOutbox
        private let readEnd: Int32

        init() throws {
            var ends: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
                throw TestFailure("socketpair failed: errno \(errno)")
            }
            readEnd = ends[0]
            let channel = try ClientBootstrap(group: group).withConnectedSocket(ends[1]).wait()
            self.channel = channel
            outbox = try channel.eventLoop.submit { ReplyOutbox(channel: channel) }.wait()
        }

        /// Whether the read end sees the end of the stream within ten seconds.
        func seesEnd() -> Bool {
            var byte: UInt8 = 0
            var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            return poll(&poller, 1, 10_000) > 0 && Foundation.read(readEnd, &byte, 1) == 0
        }

        /// Reads exactly `count` bytes, or throws after ten seconds.
        func read(_ count: Int) throws -> [UInt8] {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let deadline = Date().addingTimeInterval(10)
            while bytes.count < count {
                var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                guard Date() < deadline else { throw TestFailure("read \(bytes.count) of \(count) bytes") }
                guard poll(&poller, 1, 100) > 0 else { continue }
                let got = Foundation.read(readEnd, &chunk, min(chunk.count, count - bytes.count))
                guard got > 0 else { throw TestFailure("the channel's end closed after \(bytes.count) bytes") }
                bytes += chunk[0..<got]
            }
            return bytes
        }

        func close() throws {
            // A test may have closed the channel already.
            try? channel.close().wait()
            Foundation.close(readEnd)
            try group.syncShutdownGracefully()
        }
    }

    /// An 8-byte frame: the writer, then its running number.
    private static func frame(writer: UInt8, number: Int) -> [UInt8] {
        [writer] + withUnsafeBytes(of: UInt32(number).bigEndian, Array.init) + [0, 0, 0]
    }

    @Test func aWriteOnTheLoopGoesAfterWhatAnotherThreadWroteBeforeIt() throws {
        let pair = try Pair()
        defer { try? pair.close() }
        let rounds = 200
        for number in 0..<rounds {
            // The loop is kept busy while the other thread writes, so that write's send task is
            // still queued behind this one when the loop writes.
            try pair.channel.eventLoop.submit {
                let written = DispatchSemaphore(value: 0)
                Thread {
                    pair.outbox.write(Self.frame(writer: 1, number: number))
                    written.signal()
                }.start()
                written.wait()
                pair.outbox.write(Self.frame(writer: 2, number: number))
            }.wait()
        }
        let bytes = try pair.read(rounds * 2 * 8)
        let expected = (0..<rounds).flatMap { Self.frame(writer: 1, number: $0) + Self.frame(writer: 2, number: $0) }
        try #require(bytes.count == expected.count)
        let firstWrong = bytes.indices.first { bytes[$0] != expected[$0] }.map { $0 / 8 }
        #expect(firstWrong == nil, "frame \(firstWrong ?? 0) went out of order")
    }

    @Test func framesFromEightThreadsAndTheLoopKeepEachWritersOrder() throws {
        let pair = try Pair()
        defer { try? pair.close() }
        let perWriter = 2_000
        let threads = 8
        let loop = pair.channel.eventLoop
        let done = DispatchGroup()
        for writer in 0..<threads {
            done.enter()
            Thread {
                for number in 0..<perWriter { pair.outbox.write(Self.frame(writer: UInt8(writer), number: number)) }
                done.leave()
            }.start()
        }
        // The loop writes too, between the threads' writes.
        for number in 0..<perWriter {
            loop.execute { pair.outbox.write(Self.frame(writer: UInt8(threads), number: number)) }
        }
        let bytes = try pair.read((threads + 1) * perWriter * 8)
        done.wait()
        var next = [Int](repeating: 0, count: threads + 1)
        for start in stride(from: 0, to: bytes.count, by: 8) {
            let writer = Int(bytes[start])
            let number = bytes[start + 1..<start + 5].reduce(0) { $0 << 8 | Int($1) }
            try #require(writer <= threads && number == next[writer], "frame \(start / 8): writer \(writer) sent \(number) where \(next[writer]) was due")
            next[writer] += 1
        }
        #expect(next == [Int](repeating: perWriter, count: threads + 1))
    }

    @Test func aWriteFromAnotherThreadGoesOutWhileTheLoopIsBusy() throws {
        let pair = try Pair()
        defer { try? pair.close() }
        let release = DispatchSemaphore(value: 0)
        pair.channel.eventLoop.execute { release.wait() }
        defer { release.signal() }
        let frame = Self.frame(writer: 1, number: 7)
        pair.outbox.write(frame)
        // The loop is still held: the bytes came through the outbox's own descriptor.
        #expect(try pair.read(frame.count) == frame)
    }

    @Test func framesTheSocketCannotTakeAtOnceFollowInOrderOnceTheReaderCatchesUp() throws {
        let pair = try Pair()
        defer { try? pair.close() }
        // Far more than a socket buffer holds, from three threads, before anything is read.
        let perWriter = 100_000
        let done = DispatchGroup()
        for writer in 0..<3 {
            done.enter()
            Thread {
                for number in 0..<perWriter { pair.outbox.write(Self.frame(writer: UInt8(writer), number: number)) }
                done.leave()
            }.start()
        }
        done.wait()
        let bytes = try pair.read(3 * perWriter * 8)
        var next = [0, 0, 0]
        for start in stride(from: 0, to: bytes.count, by: 8) {
            let writer = Int(bytes[start])
            let number = bytes[start + 1..<start + 5].reduce(0) { $0 << 8 | Int($1) }
            try #require(writer < 3 && number == next[writer], "frame \(start / 8): writer \(writer) sent \(number) where \(next[writer]) was due")
            next[writer] += 1
        }
        // Written straight to the socket again once the channel sent what waited.
        pair.outbox.write(Self.frame(writer: 9, number: 1))
        #expect(try pair.read(8) == Self.frame(writer: 9, number: 1))
    }

    @Test func theClientSeesTheEndOnceTheChannelClosesThoughTheOutboxHeldTheSocket() throws {
        let pair = try Pair()
        defer { try? pair.close() }
        pair.outbox.write(Self.frame(writer: 1, number: 1))
        _ = try pair.read(8)
        try pair.channel.close().wait()
        #expect(pair.seesEnd())
        // A late write after the close goes nowhere and harms nothing.
        pair.outbox.write(Self.frame(writer: 1, number: 2))
    }
}
