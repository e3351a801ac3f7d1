import EventLog
import Testing

@testable import StreamServer

@Suite struct SubscriptionStateTests {
    private func event(_ sequence: UInt64, bytes: Int = 1) -> LogEvent {
        LogEvent(sequence: sequence, timestamp: 1, payload: Array(repeating: 0, count: bytes))
    }

    private func limits(events: Int = 4, bytes: Int = 1_000) -> ServerLimits {
        var limits = ServerLimits()
        limits.maximumBufferedEvents = events
        limits.maximumBufferedBytes = bytes
        limits.maximumEventsPerFrame = 3
        return limits
    }

    private func attached(next: UInt64 = 1, credit: UInt64 = 10) -> SubscriptionState {
        var state = SubscriptionState()
        state.started = true
        state.nextSequence = next
        state.credit = credit
        state.attached = true
        return state
    }

    @Test func withoutCreditTheLoopIsNotScheduled() {
        var state = attached(credit: 0)
        let withoutCredit = state.claimPump()
        state.credit = 1
        let withCredit = state.claimPump()
        let again = state.claimPump()
        #expect(!withoutCredit && withCredit && !again)
    }

    @Test func aDetachedSubscriptionReadsTheLogFromItsNextSequenceUpToItsCredit() {
        var state = attached(next: 7, credit: 2)
        state.attached = false
        guard case let .read(from, limit) = state.nextStep(limits: limits()) else {
            Issue.record("no read")
            return
        }
        #expect(from == 7 && limit == 2)
        state.credit = 1_000
        guard case let .read(_, several) = state.nextStep(limits: limits()) else {
            Issue.record("no read")
            return
        }
        #expect(several == 3 * Int(SubscriptionState.framesPerRead), "with credit to spare, a read fills several frames")
    }

    @Test func contiguousLiveEventsAreBufferedAndDeliveredInFramesWithinCredit() {
        var state = attached(next: 1, credit: 4)
        for sequence in UInt64(1)...4 { state.offer(event(sequence), limits: limits()) }
        #expect(state.buffer.count == 4)
        guard case let .deliver(first) = state.nextStep(limits: limits()) else {
            Issue.record("nothing delivered")
            return
        }
        #expect(first.map(\.sequence) == [1, 2, 3])
        guard case let .deliver(second) = state.nextStep(limits: limits()) else {
            Issue.record("nothing delivered")
            return
        }
        #expect(second.map(\.sequence) == [4])
        #expect(state.credit == 0 && state.nextSequence == 5)
        guard case .stop = state.nextStep(limits: limits()) else {
            Issue.record("delivered without credit")
            return
        }
    }

    @Test func eventsAlreadySentAreIgnored() {
        var state = attached(next: 5)
        state.offer(event(3), limits: limits())
        state.offer(event(5), limits: limits())
        #expect(state.buffer.map(\.sequence) == [5] && state.attached)
    }

    @Test func aFullBufferIsDroppedAndTheSubscriptionDetaches() {
        var state = attached(credit: 0)
        for sequence in UInt64(1)...5 { state.offer(event(sequence), limits: limits(events: 4)) }
        #expect(!state.attached && state.buffer.isEmpty && state.bufferedBytes == 0)
        #expect(state.lastSeen == 5)
    }

    @Test func tooManyBufferedBytesDetachToo() {
        var state = attached(credit: 0)
        state.offer(event(1, bytes: 600), limits: limits(bytes: 1_000))
        state.offer(event(2, bytes: 600), limits: limits(bytes: 1_000))
        #expect(!state.attached && state.buffer.isEmpty)
    }

    @Test func aGapDetachesSoTheMissingEventsAreReadFromTheLog() {
        var state = attached(next: 1)
        state.offer(event(1), limits: limits())
        state.offer(event(3), limits: limits())
        #expect(!state.attached && state.buffer.isEmpty)
    }

    @Test func anEmptyReadReattachesUnlessANewerCommitWasAnnounced() {
        var state = attached(next: 4)
        state.attached = false
        state.lastSeen = 4
        let first = state.afterRead(count: 0, last: nil, retry: true)
        #expect(first == .retry && !state.attached)
        let second = state.afterRead(count: 0, last: nil, retry: false)
        #expect(second == .attached && state.attached)
        var caughtUp = attached(next: 4)
        caughtUp.attached = false
        caughtUp.lastSeen = 3
        let outcome = caughtUp.afterRead(count: 0, last: nil, retry: true)
        #expect(outcome == .attached)
    }

    @Test func aReadAdvancesThePositionAndSpendsCredit() {
        var state = attached(next: 4, credit: 5)
        state.attached = false
        let outcome = state.afterRead(count: 2, last: 7, retry: true)
        #expect(outcome == .deliver)
        #expect(state.nextSequence == 8 && state.credit == 3)
    }

    @Test func anEndedSubscriptionStops() {
        var state = attached()
        state.ended = true
        let claimed = state.claimPump()
        let outcome = state.afterRead(count: 1, last: 1, retry: true)
        #expect(!claimed && outcome == .stop)
    }
}
