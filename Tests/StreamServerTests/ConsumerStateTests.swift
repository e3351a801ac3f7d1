import EventLog
import StreamProtocol
import Testing

@testable import StreamServer

/// The rules of one durable consumer, without threads or I/O: who gets what, when an event is due
/// again, when it is exhausted, what is stored.
@Suite struct ConsumerStateTests {
    private final class Member {}
    private let a = Member()
    private let b = Member()
    private let c = Member()
    private var ids: (ObjectIdentifier, ObjectIdentifier, ObjectIdentifier) { (ObjectIdentifier(a), ObjectIdentifier(b), ObjectIdentifier(c)) }
    private static let second: UInt64 = 1_000_000_000

    private func state(next: UInt64 = 1, last: UInt64, config: ConsumerConfig = ConsumerConfig(ackWait: .seconds(1)), pending: [PendingDelivery] = []) -> ConsumerState {
        ConsumerState(ConsumerRecord(stream: "s", streamCreated: 1, name: "c", config: config, nextSequence: next, pending: pending), lastSequence: last, now: 0)
    }

    @Test func membersWithCreditShareOneStepInConsecutiveRunsTakingTurns() {
        var consumer = state(last: 100)
        consumer.attach(ids.0, credit: 10)
        consumer.attach(ids.1, credit: 4)
        consumer.attach(ids.2, credit: 0)
        let step = consumer.nextStep(now: 0) { _ in true }
        #expect(step == .deliver(first: 1, last: 14, shares: [.init(member: ids.0, last: 10), .init(member: ids.1, last: 14)]))
        let result1 = consumer.nextStep(now: 0) { _ in true }
        #expect(result1 == .wait(deadline: Self.second), "no credit left: wait for the first ack wait")
        consumer.addCredit(ids.2, 3)
        consumer.addCredit(ids.0, 1)
        // The turn goes on after the last member served.
        let result2 = consumer.nextStep(now: 0) { _ in true }
        #expect(result2 == .deliver(first: 15, last: 18, shares: [.init(member: ids.2, last: 17), .init(member: ids.0, last: 18)]))
        #expect(consumer.info(stream: "s", name: "c").pending == 18)
    }

    @Test func aStepGivesEachMemberOneShareOfAtMostTheStepLimitAndTheNextStepStartsWhereTheTurnStopped() {
        var consumer = state(last: 10_000, config: ConsumerConfig(maxPending: 10_000))
        consumer.attach(ids.0, credit: 600)
        consumer.attach(ids.1, credit: 600)
        let first = consumer.nextStep(now: 0) { _ in true }
        #expect(first == .deliver(first: 1, last: 1_024, shares: [.init(member: ids.0, last: 512), .init(member: ids.1, last: 1_024)]))
        let second = consumer.nextStep(now: 0) { _ in true }
        #expect(second == .deliver(first: 1_025, last: 1_200, shares: [.init(member: ids.0, last: 1_112), .init(member: ids.1, last: 1_200)]))
    }

    @Test func aMemberThatCannotTakeFramesIsPassedOver() {
        var consumer = state(last: 10)
        consumer.attach(ids.0, credit: 5)
        consumer.attach(ids.1, credit: 5)
        let step = consumer.nextStep(now: 0) { $0 != ids.0 }
        #expect(step == .deliver(first: 1, last: 5, shares: [.init(member: ids.1, last: 5)]))
    }

    @Test func maxPendingBoundsWhatIsOutAndAcknowledgementsMakeRoom() {
        var consumer = state(last: 100, config: ConsumerConfig(maxPending: 3))
        consumer.attach(ids.0, credit: 50)
        let result3 = consumer.nextStep(now: 0) { _ in true }
        #expect(result3 == .deliver(first: 1, last: 3, shares: [.init(member: ids.0, last: 3)]))
        let result4 = consumer.nextStep(now: 0) { _ in true }
        #expect(result4 == .wait(deadline: 30 * Self.second))
        let result5 = consumer.ack([2, 99])
        #expect(result5 == 1, "only pending events count")
        let result6 = consumer.nextStep(now: 0) { _ in true }
        #expect(result6 == .deliver(first: 4, last: 4, shares: [.init(member: ids.0, last: 4)]))
        let info = consumer.info(stream: "s", name: "c")
        #expect(info.ackFloor == 0 && info.nextSequence == 5 && info.pending == 3 && info.lag == 96)
        let result7 = consumer.ack([1])
        #expect(result7 == 1)
        #expect(consumer.info(stream: "s", name: "c").ackFloor == 2, "every event below the smallest pending one is acknowledged")
    }

    @Test func anEventWhoseAckWaitRanOutIsDueAgainToAnyMemberWithItsCount() {
        var consumer = state(last: 2)
        consumer.attach(ids.0, credit: 2)
        _ = consumer.nextStep(now: 0) { _ in true }
        consumer.detach(ids.0)
        let result8 = consumer.expire(now: Self.second - 1)
        #expect(result8.isEmpty)
        let result9 = consumer.expire(now: Self.second)
        #expect(result9.isEmpty, "due again, not exhausted")
        consumer.attach(ids.1, credit: 1)
        let result10 = consumer.nextStep(now: Self.second) { _ in true }
        #expect(result10 == .redeliver(member: ids.1, [PendingDelivery(sequence: 1, deliveries: 2)]))
        consumer.addCredit(ids.1, 5)
        let result11 = consumer.nextStep(now: Self.second) { _ in true }
        #expect(result11 == .redeliver(member: ids.1, [PendingDelivery(sequence: 2, deliveries: 2)]))
        #expect(consumer.info(stream: "s", name: "c").redelivered == 2)
    }

    @Test func anEventDeliveredMaxDeliverTimesIsExhaustedWhenItsWaitRunsOutAgain() {
        var consumer = state(last: 1, config: ConsumerConfig(ackWait: .seconds(1), maxDeliver: 2))
        consumer.attach(ids.0, credit: 10)
        _ = consumer.nextStep(now: 0) { _ in true }
        let result12 = consumer.expire(now: Self.second)
        #expect(result12.isEmpty)
        let result13 = consumer.nextStep(now: Self.second) { _ in true }
        #expect(result13 == .redeliver(member: ids.0, [PendingDelivery(sequence: 1, deliveries: 2)]))
        let result14 = consumer.expire(now: 2 * Self.second)
        #expect(result14 == [PendingDelivery(sequence: 1, deliveries: 2)])
        #expect(consumer.info(stream: "s", name: "c").pending == 0)
        consumer.restore(PendingDelivery(sequence: 1, deliveries: 2), now: 2 * Self.second)
        #expect(consumer.info(stream: "s", name: "c").pending == 1, "kept when its move to the dead letters failed")
        let result15 = consumer.expire(now: 3 * Self.second)
        #expect(result15 == [PendingDelivery(sequence: 1, deliveries: 2)], "and tried again an ack wait later")
    }

    @Test func anEventGivenBackComesAgainAfterItsDelayAndAnAcknowledgementWins() {
        var consumer = state(last: 3)
        consumer.attach(ids.0, credit: 3)
        _ = consumer.nextStep(now: 0) { _ in true }
        let result16 = consumer.giveBack(2, delay: 0, now: 0)
        #expect(result16)
        let result17 = consumer.giveBack(3, delay: Self.second / 2, now: 0)
        #expect(result17)
        let result18 = consumer.giveBack(9, delay: 0, now: 0)
        #expect(!result18)
        consumer.addCredit(ids.0, 5)
        let result19 = consumer.nextStep(now: 0) { _ in true }
        #expect(result19 == .redeliver(member: ids.0, [PendingDelivery(sequence: 2, deliveries: 2)]))
        _ = consumer.expire(now: Self.second / 2)
        let result20 = consumer.ack([3])
        #expect(result20 == 1)
        let result21 = consumer.nextStep(now: Self.second / 2) { _ in true }
        #expect(result21 == .wait(deadline: Self.second), "an acknowledged event is not due")
    }

    @Test func ackThroughTakesOnlyWhatTheMemberHolds() {
        var consumer = state(last: 10)
        consumer.attach(ids.0, credit: 3)
        consumer.attach(ids.1, credit: 3)
        _ = consumer.nextStep(now: 0) { _ in true }
        let result22 = consumer.ack(through: 5, heldBy: ids.1)
        #expect(result22 == 2, "4 and 5; 6 is past the bound, 1...3 are the other's")
        #expect(consumer.info(stream: "s", name: "c").pending == 4)
    }

    @Test func theStoredRecordIsThePendingSetWithCountsAndTheNextSequence() {
        var consumer = state(next: 5, last: 20, pending: [PendingDelivery(sequence: 3, deliveries: 4)])
        consumer.attach(ids.0, credit: 2)
        _ = consumer.nextStep(now: 0) { _ in true }
        let record = consumer.record(stream: "s", streamCreated: 1, name: "c")
        #expect(record.nextSequence == 7)
        #expect(record.pending == [PendingDelivery(sequence: 3, deliveries: 4), PendingDelivery(sequence: 5, deliveries: 1), PendingDelivery(sequence: 6, deliveries: 1)])
        let result23 = consumer.expire(now: Self.second)
        #expect(result23 == [], "pending events restored from the log wait one ack wait")
        consumer.reset(to: 10)
        #expect(consumer.record(stream: "s", streamCreated: 1, name: "c") == ConsumerRecord(stream: "s", streamCreated: 1, name: "c", config: consumer.config, nextSequence: 10))
    }

    @Test func eventsThatNeverReachedTheirMemberAreDueAgainAtOnceAndNotCounted() {
        var consumer = state(last: 3)
        consumer.attach(ids.0, credit: 3)
        _ = consumer.nextStep(now: 0) { _ in true }
        consumer.detach(ids.0)
        consumer.undeliver([2, 3, 9])
        consumer.attach(ids.1, credit: 5)
        let step = consumer.nextStep(now: 0) { _ in true }
        #expect(step == .redeliver(member: ids.1, [PendingDelivery(sequence: 2, deliveries: 1), PendingDelivery(sequence: 3, deliveries: 1)]))
        #expect(consumer.info(stream: "s", name: "c").redelivered == 0)
    }
}
