import Testing

@testable import StreamServer

@Suite struct DeduplicationWindowTests {
    @Test func aRememberedIdReturnsItsOriginalSequenceAndTimestamp() {
        var window = DeduplicationWindow(capacity: 4)
        window.remember("a", sequence: 7, timestamp: 70)
        #expect(window.original(of: "a") == .init(sequence: 7, timestamp: 70))
        #expect(window.original(of: "b") == nil)
    }

    @Test func theWindowForgetsTheOldestIdsBeyondItsCapacity() {
        var window = DeduplicationWindow(capacity: 3)
        for index in 1...5 { window.remember("id-\(index)", sequence: UInt64(index), timestamp: 0) }
        #expect(window.count == 3)
        #expect(window.original(of: "id-1") == nil && window.original(of: "id-2") == nil)
        #expect(window.original(of: "id-5")?.sequence == 5)
    }
}
