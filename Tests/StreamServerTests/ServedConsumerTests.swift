import Dispatch
import Foundation
import EventLog
import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

/// When a served consumer is given up: a while after its last member left (one that ended before it
/// attached included), never while a member is about to attach, and without undoing an
/// acknowledgement that comes just before or reaches it after.
@Suite struct ServedConsumerTests {
    /// A hub whose consumer "c" of stream "s" handed events 1...3 to a member that has left since,
    /// with the log holding them pending: the state just before a worker acknowledges what it took.
    private func consumerWithThreeTaken() throws -> (StreamHub, TemporaryLog, ServedConsumer) {
        let (hub, storage) = try makeHub()
        _ = try hub.publish(to: "s", expectedLastSequence: nil, (1...3).map { .init(messageID: nil, payload: payload($0)) })
        _ = try hub.addConsumer("c", to: "s", config: ConsumerConfig(ackWait: .seconds(60)))
        let consumer = try hub.servedConsumer("c", of: "s", holdingPlace: true)
        let frames = LockedList<[UInt8]>()
        let member = ConsumerMember(
            id: 1, requestID: 1, consumer: consumer, send: { _, _ in }, sendFrame: { frames.append($0) }, canSend: { true }, onEnded: { _ in })
        #expect(consumer.attach(member, credit: 3))
        #expect(pollUntil { frames.count > 0 && consumer.info.pending == 3 })
        try hub.consumerSaver.store(consumer)
        member.end(reason: .unsubscribed, message: "", replyTo: nil)
        return (hub, storage, consumer)
    }

    /// A hub whose stream "s" holds one event and has consumer "c", which the hub serves; with
    /// `holdingPlace`, found as a CONSUME finds it, with a place held for a member.
    private func servedConsumer(holdingPlace: Bool = false) throws -> (StreamHub, TemporaryLog, ServedConsumer) {
        let (hub, storage) = try makeHub()
        _ = try hub.publish(to: "s", expectedLastSequence: nil, [.init(messageID: nil, payload: payload(1))])
        _ = try hub.addConsumer("c", to: "s", config: ConsumerConfig())
        return (hub, storage, try hub.servedConsumer("c", of: "s", holdingPlace: holdingPlace))
    }

    /// A member of `consumer` that takes no frames, not attached.
    private func member(_ id: UInt32, of consumer: ServedConsumer) -> ConsumerMember {
        ConsumerMember(id: id, requestID: id, consumer: consumer, send: { _, _ in }, sendFrame: { _ in }, canSend: { true }, onEnded: { _ in })
    }

    /// A member of `consumer` that takes no frames, attached with no credit.
    private func attachedMember(_ id: UInt32, of consumer: ServedConsumer) -> ConsumerMember {
        let member = self.member(id, of: consumer)
        #expect(consumer.holdPlace() && consumer.attach(member, credit: 0))
        return member
    }

    /// Acknowledges `sequences` on `consumer` and returns once they are stored: nil, or the error.
    private func ack(_ sequences: [UInt64], on consumer: ServedConsumer) -> String? {
        let outcome = LockedList<String?>()
        let done = DispatchSemaphore(value: 0)
        consumer.ack(sequences) { error in
            outcome.append(error.map { "\($0)" })
            done.signal()
        }
        done.wait()
        return outcome.all.first ?? "no answer"
    }

    @Test func aRequestDuringAGiveUpLoadsTheConsumerAsItWasGivenUpNotAsLastSaved() throws {
        let (hub, storage, consumer) = try consumerWithThreeTaken()
        // Saves wait (a save in progress), so the log holds 1...3 pending while the consumer has them
        // acknowledged.
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { try? hub.consumerSaver.betweenSaves { held.signal(); release.wait() } }
        held.wait()
        consumer.ack([1, 2, 3]) { _ in }
        let retired = DispatchGroup()
        DispatchQueue.global().async(group: retired) { hub.retire(consumer) }
        // Given the time to take the consumer out of the table before storing it, as it did; a retire
        // that stores first waits for the saves, and leaves the table as it is meanwhile.
        _ = pollUntil(timeout: .milliseconds(500)) { hub.consumers.withLock { $0.isEmpty } }
        // A CONSUME or ACK coming now.
        _ = try hub.servedConsumer("c", of: "s")
        release.signal()
        retired.wait()
        let info = try hub.consumerInfo("c", of: "s")
        #expect(info.pending == 0 && info.ackFloor == 3, "\(info)")
        _ = storage
    }

    /// `consumerWithThreeTaken`, given up: a request that found it in the table just before, and
    /// reaches it after, meets it closed.
    private func consumerGivenUpWithThreeTaken() throws -> (StreamHub, TemporaryLog, ServedConsumer) {
        let (hub, storage, consumer) = try consumerWithThreeTaken()
        hub.retire(consumer)
        #expect(consumer.isClosed)
        return (hub, storage, consumer)
    }

    @Test func anAcknowledgementReachingAConsumerGivenUpGoesToTheOneServedNext() throws {
        let (hub, storage, consumer) = try consumerGivenUpWithThreeTaken()
        #expect(ack([1, 2, 3], on: consumer) == nil)
        let info = try hub.consumerInfo("c", of: "s")
        #expect(info.pending == 0 && info.ackFloor == 3, "\(info)")
        _ = storage
    }

    @Test func aResetReachingAConsumerGivenUpGoesToTheOneServedNext() throws {
        let (hub, storage, consumer) = try consumerGivenUpWithThreeTaken()
        #expect(try consumer.reset(to: 2).nextSequence == 2)
        #expect(try hub.consumerInfo("c", of: "s").pending == 0)
        _ = storage
    }

    @Test func aGiveBackReachingAConsumerGivenUpGoesToTheOneServedNext() throws {
        let (hub, storage, consumer) = try consumerGivenUpWithThreeTaken()
        #expect(try consumer.giveBack(2, delayMilliseconds: 0))
        // The next one holds 1...3 pending for a minute, but event 2 due at once: a member gets it now.
        let next = try hub.servedConsumer("c", of: "s", holdingPlace: true)
        #expect(next !== consumer)
        let frames = LockedList<[UInt8]>()
        let member = ConsumerMember(
            id: 2, requestID: 2, consumer: next, send: { _, _ in }, sendFrame: { frames.append($0) }, canSend: { true }, onEnded: { _ in })
        #expect(next.attach(member, credit: 3))
        #expect(pollUntil(timeout: .seconds(10)) { frames.count > 0 })
        #expect(next.info.redelivered == 1, "\(next.info)")
        _ = storage
    }

    @Test func membersComingAndGoingKeepTheConsumerTillTheLastHasBeenGoneAWhile() throws {
        let (hub, storage) = try makeHub()
        _ = try hub.publish(to: "s", expectedLastSequence: nil, [.init(messageID: nil, payload: payload(1))])
        _ = try hub.addConsumer("c", to: "s", config: ConsumerConfig(ackWait: .seconds(60)))
        let consumer = try hub.servedConsumer("c", of: "s")
        attachedMember(1, of: consumer).end(reason: .unsubscribed, message: "", replyTo: nil)
        // A member comes and goes before the first one's check; the check after it gives up.
        usleep(1_500_000)
        let second = attachedMember(2, of: consumer)
        let lastLeft = ContinuousClock.now
        second.end(reason: .unsubscribed, message: "", replyTo: nil)
        #expect(pollUntil(timeout: .seconds(10)) { consumer.isClosed })
        let servedAfter = ContinuousClock.now - lastLeft
        #expect(servedAfter >= .nanoseconds(Int64(ServedConsumer.idleRelease)), "given up \(servedAfter) after the last member left")
        withExtendedLifetime(hub) {}
        _ = storage
    }

    @Test func aConsumerFoundForAMemberIsNotGivenUpBeforeTheMemberAttaches() throws {
        let (hub, storage, consumer) = try servedConsumer(holdingPlace: true)
        // Its give-up check (no member for 2 s) comes between the CONSUME finding it and attaching.
        hub.retire(consumer)
        #expect(!consumer.isClosed)
        let member = self.member(1, of: consumer)
        #expect(consumer.attach(member, credit: 0))
        _ = storage
    }

    @Test func aPlaceGivenBackLeavesTheConsumerToBeGivenUpAWhileLater() throws {
        let (hub, storage, consumer) = try servedConsumer(holdingPlace: true)
        hub.retire(consumer)
        #expect(!consumer.isClosed)
        // The member's connection closed before it attached.
        consumer.givePlaceBack()
        #expect(pollUntil(timeout: .seconds(10)) { consumer.isClosed })
        withExtendedLifetime(hub) {}
        _ = storage
    }

    @Test func aMemberThatEndedBeforeItAttachedLeavesTheConsumerToBeGivenUp() throws {
        let (hub, storage, consumer) = try servedConsumer(holdingPlace: true)
        let member = self.member(1, of: consumer)
        // Its connection closed between the CONSUME finding the consumer and attaching the member.
        member.end(reason: .unsubscribed, message: "", replyTo: nil)
        #expect(!consumer.attach(member, credit: 0))
        #expect(pollUntil(timeout: .seconds(10)) { consumer.isClosed })
        withExtendedLifetime(hub) {}
        _ = storage
    }

    @Test func aDeletionWaitingForASaveLeavesTheConsumerServedTillItDeletesItInOneStep() throws {
        let (hub, storage, consumer) = try servedConsumer()
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread.detachNewThread { try? hub.consumerSaver.betweenSaves { held.signal(); release.wait() } }
        held.wait()
        let deleted = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? hub.deleteConsumer("c", of: "s")
            deleted.signal()
        }
        // Taken out of the table before its deletion's turn, a request meanwhile would load it again
        // from the log, and serve it on after the deletion.
        #expect(!pollUntil(timeout: .milliseconds(300)) { consumer.isClosed })
        #expect(hub.consumers.withLock { $0[ConsumerKey(stream: "s", name: "c")] } === consumer)
        release.signal()
        deleted.wait()
        #expect(consumer.isClosed)
        #expect(throws: (any Error).self) { try hub.servedConsumer("c", of: "s") }
        #expect(hub.consumers.withLock { $0.isEmpty })
        _ = storage
    }
}
