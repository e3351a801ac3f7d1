import Testing

@testable import StreamServer

@Suite struct PublishRateTests {
    @Test func theRateIsTheEventsOfTheLastTenSecondsOverTen() {
        var rate = PublishRate()
        for second in 0..<20 { rate.record(10, to: "a", atSecond: Int64(second)) }
        #expect(rate.rateMillis(of: "a", atSecond: 19, uptime: .seconds(20)) == 10_000)
        #expect(rate.rateMillis(of: nil, atSecond: 19, uptime: .seconds(20)) == 10_000)
        #expect(rate.publishedSinceStart == 200)
    }

    @Test func eventsOlderThanTheWindowNoLongerCount() {
        var rate = PublishRate()
        rate.record(100, to: "a", atSecond: 5)
        #expect(rate.rateMillis(of: "a", atSecond: 14, uptime: .seconds(15)) == 10_000)
        #expect(rate.rateMillis(of: "a", atSecond: 15, uptime: .seconds(16)) == 0)
        rate.record(1, to: "a", atSecond: 40)
        #expect(rate.rateMillis(of: "a", atSecond: 40, uptime: .seconds(41)) == 100)
    }

    @Test func aYoungHubDividesByItsAgeButAtLeastOneSecond() {
        var rate = PublishRate()
        rate.record(30, to: "a", atSecond: 2)
        #expect(rate.rateMillis(of: "a", atSecond: 2, uptime: .seconds(3)) == 10_000)
        #expect(rate.rateMillis(of: "a", atSecond: 0, uptime: .milliseconds(100)) == 0)
        var fresh = PublishRate()
        fresh.record(5, to: "a", atSecond: 0)
        #expect(fresh.rateMillis(of: "a", atSecond: 0, uptime: .milliseconds(100)) == 5_000)
    }

    @Test func streamsAreCountedApartAndForgotten() {
        var rate = PublishRate()
        rate.record(10, to: "a", atSecond: 10)
        rate.record(30, to: "b", atSecond: 10)
        #expect(rate.rateMillis(of: "a", atSecond: 10, uptime: .seconds(20)) == 1_000)
        #expect(rate.rateMillis(of: "b", atSecond: 10, uptime: .seconds(20)) == 3_000)
        #expect(rate.rateMillis(of: nil, atSecond: 10, uptime: .seconds(20)) == 4_000)
        rate.forget("b")
        #expect(rate.rateMillis(of: "b", atSecond: 10, uptime: .seconds(20)) == 0)
        #expect(rate.rateMillis(of: "unknown", atSecond: 10, uptime: .seconds(20)) == 0)
    }
}
