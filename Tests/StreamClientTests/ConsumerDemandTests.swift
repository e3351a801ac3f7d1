import Synchronization
import Testing

@testable import StreamClient

@Suite struct ConsumerDemandTests {
    final class Grants: Sendable {
        let granted = Mutex<[UInt32]>([])
        var grant: @Sendable (UInt32) -> Void { { count in self.granted.withLock { $0.append(count) } } }
        var values: [UInt32] { granted.withLock { $0 } }
    }

    @Test func nothingIsGrantedForEventsThatArriveOnlyForEventsTheConsumerTakes() {
        let demand = ConsumerDemand(window: 8)
        let grants = Grants()
        #expect(demand.opened(grant: grants.grant) == 8)
        demand.received(8)
        #expect(grants.values.isEmpty)
        for _ in 0..<3 { demand.consumed() }
        #expect(grants.values.isEmpty)
        demand.consumed()
        #expect(grants.values == [4])
        #expect(demand.waiting == 4)
        #expect(demand.peakWaiting == 8)
    }

    @Test func aSubscriptionOpenedAgainAsksOnlyForTheRoomLeftInTheWindow() {
        let demand = ConsumerDemand(window: 8)
        _ = demand.opened(grant: Grants().grant)
        demand.received(6)
        demand.consumed()
        #expect(demand.opened(grant: Grants().grant) == 3)
        demand.received(3)
        #expect(demand.opened(grant: Grants().grant) == 0)
    }
}
