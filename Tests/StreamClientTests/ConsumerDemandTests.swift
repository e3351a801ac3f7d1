import Synchronization
import Testing

@testable import StreamClient

@Suite struct ConsumerDemandTests {
    final class Grants: Sendable {
        let count = Atomic<Int>(0)
        var grant: @Sendable () -> Void { { self.count.add(1, ordering: .relaxed) } }
        var value: Int { count.load(ordering: .relaxed) }
    }

    @Test func grantsGoOutAtOnceWhileTheConsumerKeepsUp() {
        let demand = ConsumerDemand(limit: 4)
        let grants = Grants()
        demand.received(4)
        demand.whenConsumerKeepsUp(grants.grant)
        #expect(grants.value == 1)
    }

    @Test func grantsAreHeldWhileTooManyEventsWaitAndGoOutWhenTheConsumerCatchesUp() {
        let demand = ConsumerDemand(limit: 4)
        let grants = Grants()
        demand.received(6)
        demand.whenConsumerKeepsUp(grants.grant)
        demand.whenConsumerKeepsUp(grants.grant)
        #expect(grants.value == 0)
        demand.consumed()
        #expect(grants.value == 0)
        demand.consumed()
        #expect(grants.value == 2)
        demand.consumed()
        #expect(grants.value == 2)
    }
}
