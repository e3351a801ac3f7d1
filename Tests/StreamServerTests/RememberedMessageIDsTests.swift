import Testing

@testable import StreamServer

@Suite struct RememberedMessageIDsTests {
    @Test func aRememberedIdReturnsItsOriginalSequenceAndTimestamp() {
        var window = RememberedMessageIDs(within: .init(events: 4))
        window.remember("a", sequence: 7, timestamp: 70)
        #expect(window.original(of: "a", at: 0) == .init(sequence: 7, timestamp: 70))
        #expect(window.original(of: "b", at: 0) == nil)
    }

    @Test func theWindowForgetsTheOldestIdsBeyondItsCapacity() {
        var window = RememberedMessageIDs(within: .init(events: 3))
        for index in 1...5 { window.remember("id-\(index)", sequence: UInt64(index), timestamp: 0) }
        #expect(window.count == 3)
        #expect(window.original(of: "id-1", at: 0) == nil && window.original(of: "id-2", at: 0) == nil)
        #expect(window.original(of: "id-5", at: 0)?.sequence == 5)
        #expect(!window.mayHaveForgotten, "what left the window left the log's too")
    }

    /// An id out of its window by age is stored again: its new publish is remembered in place of
    /// the old one, and answers the next retry.
    @Test func anIdStoredAgainAfterItsWindowPassedIsRememberedAnew() {
        var window = RememberedMessageIDs(within: .init(duration: .seconds(3)))
        window.remember("x", sequence: 1, timestamp: 0)
        window.remember("y", sequence: 2, timestamp: 1_000_000)
        #expect(window.original(of: "x", at: 3_500_000) == nil, "3.5 s after it")
        window.remember("x", sequence: 3, timestamp: 3_500_000)
        #expect(window.original(of: "x", at: 3_600_000) == .init(sequence: 3, timestamp: 3_500_000))
        window.remember("z", sequence: 4, timestamp: 4_200_000)
        #expect(window.original(of: "y", at: 4_200_000) == nil && window.original(of: "x", at: 4_200_000)?.sequence == 3)
        #expect(window.count == 2, "y left by age; x's old entry was skipped, not counted twice")
    }

    /// Publishes without ids move the stream on: the hub tells the window, which then counts them.
    @Test func anIdLeavesAWindowByCountAsTheStreamMovesOnWithoutIds() {
        var window = RememberedMessageIDs(within: .init(events: 3))
        window.remember("a", sequence: 1, timestamp: 0)
        window.advance(to: 3)
        #expect(window.original(of: "a", at: 0)?.sequence == 1, "the last 3 are 1...3")
        window.advance(to: 4)
        #expect(window.original(of: "a", at: 0) == nil && window.count == 0)
    }

    @Test func anIdForgottenForLackOfRoomMayStillBeInTheLogUntilItsEventLeavesTheWindow() {
        var window = RememberedMessageIDs(within: .init(events: 100), byteLimit: 3 * RememberedMessageIDs.cost(of: "id-1"))
        for index in 1...5 { window.remember("id-\(index)", sequence: UInt64(index), timestamp: 0) }
        #expect(window.original(of: "id-2", at: 0) == nil)
        #expect(window.mayHaveForgotten, "id-2's event is among the last 100")
        window.remember("id-110", sequence: 110, timestamp: 0)
        #expect(!window.mayHaveForgotten, "id-2's event left the last 100")
        var trimmed = RememberedMessageIDs(within: .init(events: 100))
        for index in 1...5 { trimmed.remember("id-\(index)", sequence: UInt64(index), timestamp: 0) }
        #expect(!trimmed.mayHaveForgotten)
        trimmed.forgetOldest(bytes: 1)
        #expect(trimmed.mayHaveForgotten, "a hub's trim forgets for lack of room too")
        trimmed.forgetAll()
        #expect(!trimmed.mayHaveForgotten)
    }
}

/// The window's memory: bounded in bytes per stream and over every stream, whatever the ids' lengths.
@Suite struct RememberedMessageIDsMemoryTests {
    @Test func manyLongIdsKeepTheWindowUnderItsByteLimit() {
        let limit = 256 * 1024
        var window = RememberedMessageIDs(within: .init(events: 10_000), byteLimit: limit)
        for index in 0..<10_000 {
            window.remember(String(repeating: "x", count: 120) + "\(index)", sequence: UInt64(index), timestamp: 0)
            #expect(window.bytes <= limit)
        }
        // The newest ids are remembered, the oldest forgotten first.
        #expect(window.original(of: String(repeating: "x", count: 120) + "9999", at: 0)?.sequence == 9999)
        #expect(window.original(of: String(repeating: "x", count: 120) + "0", at: 0) == nil)
        #expect(window.count < 10_000 && window.count >= limit / (124 + RememberedMessageIDs.overheadPerID))
    }

    @Test func windowsSharingABudgetCountTheirBytesInItAndGiveThemBack() {
        let shared = ByteBudget(limit: 64 * 1024)
        var windows = (0..<3).map { _ in RememberedMessageIDs(within: .init(events: 10_000), byteLimit: 1 << 20, shared: shared) }
        for index in 0..<500 {
            for stream in windows.indices {
                windows[stream].remember("\(stream)-\(index)-" + String(repeating: "y", count: 100), sequence: UInt64(index), timestamp: 0)
            }
        }
        #expect(shared.usedBytes == windows.reduce(0) { $0 + $1.bytes })
        #expect(shared.isOverLimit)
        let given = windows[0].forgetOldest(bytes: 10_000)
        #expect(given >= 10_000 && windows[0].original(of: "0-0-" + String(repeating: "y", count: 100), at: 0) == nil)
        #expect(windows[0].original(of: "0-499-" + String(repeating: "y", count: 100), at: 0) != nil)
        #expect(shared.usedBytes == windows.reduce(0) { $0 + $1.bytes })
        for stream in windows.indices { windows[stream].forgetAll() }
        #expect(shared.usedBytes == 0)
    }

    @Test func trimmingCutsTheLargestWindowsToOneCommonSize() {
        #expect(StreamHub.commonSize(cutting: 72, from: [64, 64, 64]) == 40)
        #expect(StreamHub.commonSize(cutting: 10, from: [100, 20, 5]) == 90)
        #expect(StreamHub.commonSize(cutting: 90, from: [100, 20, 5]) == 15)
        #expect(StreamHub.commonSize(cutting: 1000, from: [100, 20, 5]) == 0)
        #expect(StreamHub.commonSize(cutting: 0, from: [100]) == nil)
    }

    @Test func anIdLargerThanTheWholeLimitIsNotRemembered() {
        var window = RememberedMessageIDs(within: .init(events: 10), byteLimit: 100)
        window.remember("short", sequence: 1, timestamp: 0)
        window.remember(String(repeating: "z", count: 200), sequence: 2, timestamp: 0)
        #expect(window.original(of: "short", at: 0)?.sequence == 1)
        #expect(window.count == 1)
        #expect(window.mayHaveForgotten, "the log keeps it, and is to be asked")
    }
}
