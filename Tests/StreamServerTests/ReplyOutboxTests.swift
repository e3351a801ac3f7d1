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

        init(keepers: [any WakeLatencyKeeper] = []) throws {
            var ends: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
                throw TestFailure("socketpair failed: errno \(errno)")
            }
            readEnd = ends[0]
            let channel = try ClientBootstrap(group: group).withConnectedSocket(ends[1]).wait()
            self.channel = channel
            outbox = try channel.eventLoop.submit { ReplyOutbox(channel: channel, keepers: keepers) }.wait()
        }

        /// Everything the read end receives until the end of the stream, or throws after ten seconds.
        func readToEnd() throws -> [UInt8] {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let deadline = Date().addingTimeInterval(10)
            while true {
                var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                guard Date() < deadline else { throw TestFailure("no end after \(bytes.count) bytes") }
                guard poll(&poller, 1, 100) > 0 else { continue }
                let got = Foundation.read(readEnd, &chunk, chunk.count)
                guard got > 0 else { return bytes }
                bytes += chunk[0..<got]
            }
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
    @Test func eachWriteIsNotedForTheKeepersThoughItSkipsThePipeline() throws {
        let spinner = IdleSpinner(window: .milliseconds(1))
        defer { spinner.stop() }
        let pair = try Pair(keepers: [spinner])
        defer { try? pair.close() }
        let release = DispatchSemaphore(value: 0)
        pair.channel.eventLoop.execute { release.wait() }
        defer { release.signal() }
        for number in 1...3 {
            #expect(pollUntil { spinner.sleepsUpToDate })
            pair.outbox.write(Self.frame(writer: 1, number: number))
            _ = try pair.read(8)
            #expect(pollUntil { spinner.spinCount == number }, "after write \(number)")
        }
    }

    /// A write that lands after the channel dropped the bytes it held, at its close, must not go
    /// straight out behind the frame they cut off.
    @Test func noFrameFollowsBytesTheChannelDroppedWhenItClosed() throws {
        let pair = try Pair()
        defer { try? pair.close() }
        // Far more than the socket holds, so most of it waits in the channel, unread.
        let held = [UInt8](repeating: 1, count: 2 << 20)
        pair.outbox.write(held)
        let late = [UInt8](repeating: 0xFF, count: 8)
        // On the loop: close, which fails the channel's unsent writes; the client reads, making room
        // in the socket; then a write, before the close has finished (a session's thread may write
        // in that moment).
        let first = try pair.channel.eventLoop.submit {
            pair.channel.close(promise: nil)
            defer { pair.outbox.write(late) }
            return try pair.read(64 * 1024)
        }.wait()
        let bytes = first + (try pair.readToEnd())
        let received = bytes.count, lateAt = bytes.firstIndex(of: 0xFF)
        #expect(received < held.count, "the close dropped nothing; the test proves nothing")
        #expect(lateAt == nil, "a frame went out after \(lateAt ?? 0) bytes of a cut one")
    }
}
