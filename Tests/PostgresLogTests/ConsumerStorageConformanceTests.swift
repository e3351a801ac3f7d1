import EventLog
import Foundation
import PostgresLog
import StreamModel
import StreamdTestSupport
import Testing

/// Durable consumers as each store keeps them (issue 19): added once, saved over, bound to one life of
/// their stream, and gone with it.
@Suite(.enabled(if: postgresAvailable, "needs root and Debian's postgresql package"))
struct ConsumerStorageConformanceTests {
    private let lease = ConsumerLease(owner: "this daemon", duration: .seconds(10))

    /// On PostgreSQL, which several daemons share, one daemon serves a consumer at a time: a claim
    /// under another lease is refused while the first runs, saves go only to the holder, a released
    /// or lapsed lease can be taken, and the new holder starts from what the old one saved.
    @Test func oneDaemonAtATimeHoldsAConsumerOnPostgreSQL() throws {
        let opened = try Store.postgres.open()
        let log = try #require(opened.log as? any ServedLog)
        _ = try log.ensuredStream("orders", policy: StreamPolicy())
        var record = try log.addConsumer(ConsumerRecord(stream: "orders", streamCreated: 0, name: "billing", config: ConsumerConfig(), nextSequence: 1))
        let other = ConsumerLease(owner: "the other daemon", duration: .milliseconds(300))
        #expect(try log.claimConsumer("billing", of: "orders", under: lease) == record)
        #expect(try log.claimConsumer("billing", of: "orders", under: lease) == record, "the holder may claim again")
        #expect(try log.claimConsumer("billing", of: "orders", under: other) == nil)
        record.nextSequence = 7
        #expect(try log.saveConsumers([record], under: other) == [record], "not the holder: not stored")
        #expect(try log.saveConsumers([record], under: lease).isEmpty)
        try log.releaseConsumer("billing", of: "orders", under: lease)
        #expect(try log.claimConsumer("billing", of: "orders", under: other)?.nextSequence == 7, "the next holder starts where the last one saved")
        #expect(try log.saveConsumers([record], under: lease) == [record], "the old holder's saves no longer land")
        // The other daemon stops without giving it up: its lease lapses.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try log.claimConsumer("billing", of: "orders", under: lease)?.nextSequence == 7)
        #expect(try log.claimConsumer("missing", of: "orders", under: lease) == nil)
    }

    @Test(arguments: Store.allCases)
    func aConsumerIsAddedOnceSavedOverAndListedByName(store: Store) throws {
        let opened = try store.open()
        let log = try #require(opened.log as? any ServedLog)
        _ = try log.ensuredStream("orders", policy: StreamPolicy())
        let config = ConsumerConfig(start: .from(sequence: 3), ackWait: .milliseconds(1_500), maxDeliver: 4, maxPending: 64, deadLetter: "orders.dead")
        let added = try log.addConsumer(ConsumerRecord(stream: "orders", streamCreated: 0, name: "billing", config: config, nextSequence: 3))
        #expect(added.config == config && added.nextSequence == 3 && added.pending.isEmpty)
        #expect(added.streamCreated == (try log.catalogEntry("orders"))?.created, "bound to the stream's life, whatever the caller said")

        let again = try log.addConsumer(ConsumerRecord(stream: "orders", streamCreated: 0, name: "billing", config: ConsumerConfig(), nextSequence: 1))
        #expect(again == added, "adding a name in use gives the consumer there is")

        var moved = added
        moved.nextSequence = 1_000_000_007
        moved.pending = [PendingDelivery(sequence: 5, deliveries: 1), PendingDelivery(sequence: 300, deliveries: 7), PendingDelivery(sequence: 1_000_000_006, deliveries: 70_000)]
        let plain = try log.addConsumer(ConsumerRecord(stream: "orders", streamCreated: 0, name: "audit", config: ConsumerConfig(), nextSequence: 1))
        #expect(try log.claimConsumer("billing", of: "orders", under: lease) == added)
        #expect(try log.saveConsumers([moved], under: lease).isEmpty)
        #expect(try log.consumers(of: "orders") == [plain, moved], "by name, with the pending set as saved")
        #expect(try log.consumers(of: "missing").isEmpty)
        expectLogError(.streamNotFound) { _ = try log.addConsumer(ConsumerRecord(stream: "missing", streamCreated: 0, name: "x", config: config, nextSequence: 1)) }

        #expect(try log.deleteConsumer("audit", of: "orders"))
        #expect(try !log.deleteConsumer("audit", of: "orders"))
        #expect(try log.consumers(of: "orders") == [moved])
    }

    @Test(arguments: Store.allCases)
    func consumersGoWithTheirStreamAndALateSaveNeverLandsOnTheNextLifeOfTheName(store: Store) throws {
        let opened = try store.open()
        let log = try #require(opened.log as? any ServedLog)
        _ = try log.ensuredStream("orders", policy: StreamPolicy())
        var old = try log.addConsumer(ConsumerRecord(stream: "orders", streamCreated: 0, name: "billing", config: ConsumerConfig(), nextSequence: 1))
        try log.deleteStream("orders")
        #expect(try log.consumers(of: "orders").isEmpty)
        _ = try log.ensuredStream("orders", policy: StreamPolicy())
        old.nextSequence = 50
        #expect(try log.saveConsumers([old], under: lease).isEmpty, "gone with its stream: dropped, not lost to another daemon")
        #expect(try log.consumers(of: "orders").isEmpty, "a save for the deleted stream is dropped")
    }

    @Test func pendingSetsSurviveTheirStoredFormAndDamageIsRefused() {
        let pending = [PendingDelivery(sequence: 1, deliveries: 1), PendingDelivery(sequence: 2, deliveries: 300), PendingDelivery(sequence: UInt64(Int64.max), deliveries: .max)]
        let record = ConsumerRecord(stream: "s", streamCreated: 0, name: "c", config: ConsumerConfig(), nextSequence: 1, pending: pending)
        #expect(ConsumerRecord.decodePending(record.encodedPending) == pending)
        #expect(ConsumerRecord.decodePending([]) == [])
        #expect(ConsumerRecord.decodePending([0x05]) == nil, "a sequence without its count")
        #expect(ConsumerRecord.decodePending([0x05, 0x81]) == nil, "a count cut short")
        #expect(ConsumerRecord.decodePending([0x05, 0x01, 0x00, 0x01]) == nil, "the same sequence twice")
        #expect(ConsumerRecord.decodePending([0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]) == nil, "a count past UInt32.max")
    }
}
