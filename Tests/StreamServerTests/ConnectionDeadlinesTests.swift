import Testing

@testable import StreamServer

/// The time limits of a connection, in virtual time (nanoseconds given to the state machine).
@Suite struct ConnectionDeadlinesTests {
    private static let second: UInt64 = 1_000_000_000
    private static var limits: ConnectionLimits {
        var limits = ConnectionLimits()
        limits.handshakeTimeout = .seconds(10)
        limits.idleTimeout = .seconds(300)
        limits.frameTimeout = .seconds(30)
        return limits
    }

    private func progress(greeted: Bool = true, buffered: Int = 0, frames: Int = 1) -> ConnectionSession.InboundProgress {
        .init(greeted: greeted, bufferedBytes: buffered, framesDecoded: frames)
    }

    @Test func aConnectionWithoutHelloIsClosedOnlyAfterTheHandshakeTimeout() {
        var deadlines = ConnectionDeadlines(limits: Self.limits, now: 0)
        #expect(deadlines.check(now: 10 * Self.second, progress: progress(greeted: false, frames: 0), busy: false, held: false) == .keep)
        guard case let .close(reason) = deadlines.check(now: 11 * Self.second, progress: progress(greeted: false, frames: 0), busy: false, held: false) else {
            Issue.record("kept past the handshake timeout")
            return
        }
        #expect(reason.hasPrefix("no HELLO arrived within 10 s of connecting;"))
    }

    @Test func anIdleConnectionIsClosedButBytesAndWorkInProgressKeepItOpen() {
        var deadlines = ConnectionDeadlines(limits: Self.limits, now: 0)
        deadlines.received(now: 200 * Self.second)
        #expect(deadlines.check(now: 450 * Self.second, progress: progress(), busy: false, held: false) == .keep)
        // Subscribed from 450 s to 900 s: kept, and the idle time counts from the last time it was busy.
        #expect(deadlines.check(now: 900 * Self.second, progress: progress(), busy: true, held: false) == .keep)
        #expect(deadlines.check(now: 1100 * Self.second, progress: progress(), busy: false, held: false) == .keep)
        #expect(deadlines.check(now: 1201 * Self.second, progress: progress(), busy: false, held: false) != .keep)
    }

    @Test func aZeroIdleTimeoutKeepsIdleConnections() {
        var limits = Self.limits
        limits.idleTimeout = .zero
        var deadlines = ConnectionDeadlines(limits: limits, now: 0)
        #expect(deadlines.check(now: 100_000 * Self.second, progress: progress(), busy: false, held: false) == .keep)
    }

    @Test func aStalledFrameIsClosedAfterTheFrameTimeoutButFramesThatCompleteAreNot() {
        var deadlines = ConnectionDeadlines(limits: Self.limits, now: 0)
        // Frames keep completing although bytes of the next are always buffered: kept.
        for step in 1...10 {
            deadlines.received(now: UInt64(step) * 20 * Self.second)
            #expect(deadlines.check(now: UInt64(step) * 20 * Self.second, progress: progress(buffered: 100, frames: step), busy: true, held: false) == .keep)
        }
        // Frame 10 stalls: closed once 30 s have passed since it was first seen unfinished.
        #expect(deadlines.check(now: 229 * Self.second, progress: progress(buffered: 500, frames: 10), busy: true, held: false) == .keep)
        guard case let .close(reason) = deadlines.check(now: 231 * Self.second, progress: progress(buffered: 500, frames: 10), busy: true, held: false) else {
            Issue.record("a stalled frame was kept")
            return
        }
        #expect(reason.hasPrefix("a frame did not arrive whole within 30 s (500 bytes of it came);"))
    }

    @Test func theFrameClockStopsWhileTheServerHoldsReadingBack() {
        var deadlines = ConnectionDeadlines(limits: Self.limits, now: 0)
        #expect(deadlines.check(now: 1 * Self.second, progress: progress(buffered: 100), busy: true, held: false) == .keep)
        #expect(deadlines.check(now: 100 * Self.second, progress: progress(buffered: 100), busy: true, held: true) == .keep)
        #expect(deadlines.check(now: 101 * Self.second, progress: progress(buffered: 100), busy: true, held: false) == .keep)
        #expect(deadlines.check(now: 130 * Self.second, progress: progress(buffered: 100), busy: true, held: false) == .keep)
        #expect(deadlines.check(now: 132 * Self.second, progress: progress(buffered: 100), busy: true, held: false) != .keep)
    }
}
