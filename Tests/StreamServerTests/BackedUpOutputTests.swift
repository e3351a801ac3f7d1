import EventLog
import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

/// A connection whose socket is full (its client stopped reading) gets no more `EVENTS` until it
/// drains; the subscription holds at most its live buffer meanwhile and then catches up from the log.
struct BackedUpOutputTests {
    @Test func aSubscriptionSendsNothingWhileTheOutputIsBackedUpAndEverythingAfterwards() throws {
        let (hub, storage) = try makeHub { $0.maximumBufferedEvents = 64 }
        let subscriber = try TestClient.connected(to: hub)
        let publisher = try TestClient.connected(to: hub)
        try publisher.publish(payload(0), to: "s")
        let reply = try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "s", start: .all, credit: .max)))
        guard case .subscribed = reply else { throw TestFailure("not subscribed: \(reply)") }
        _ = try subscriber.waitForEvents(of: 1, count: 1)

        subscriber.session.outputWritabilityChanged(false)
        for index in 1...2_000 { try publisher.publish(payload(index), to: "s") }
        storage.log.waitForObservers()
        let subscription = try #require(subscriber.session.subscription(1) as? Subscription)
        subscription.waitForDelivery()
        #expect(subscriber.events(of: 1).count == 1)
        #expect(subscription.bufferedEventCount <= 64)

        subscriber.session.outputWritabilityChanged(true)
        let events = try subscriber.waitForEvents(of: 1, count: 2_001)
        #expect(events.map(\.sequence) == (1...2_001).map { UInt64($0) })
        #expect(events.map(\.payload) == (0...2_000).map(payload))
    }
}
