import Testing
@testable import Reactive

@Suite struct SchedulerTimeTests {
    @Test func addingADurationMovesTheTimeByThatManyNanoseconds() {
        let time = SchedulerTime(nanoseconds: 1_000)
        #expect((time + .seconds(2)).nanoseconds == 2_000_001_000)
        #expect((time + .microseconds(1)).nanoseconds == 2_000)
        #expect((time - .nanoseconds(400)).nanoseconds == 600)
    }

    @Test func arithmeticSaturatesAtTheOriginAndTheMaximum() {
        #expect(SchedulerTime(nanoseconds: 5) - .seconds(1) == .zero)
        let late = SchedulerTime(nanoseconds: .max - 1)
        #expect((late + .seconds(1)).nanoseconds == .max)
    }

    @Test func theDurationBetweenTwoTimesIsSigned() {
        let early = SchedulerTime(nanoseconds: 1_000_000_000)
        let late = early + .milliseconds(1500)
        #expect(early.duration(to: late) == .milliseconds(1500))
        #expect(late.duration(to: early) == .milliseconds(-1500))
        #expect(late - early == .milliseconds(1500))
    }

    @Test func timesOrderByTheirNanoseconds() {
        var time = SchedulerTime.zero
        time += .seconds(1)
        #expect(SchedulerTime.zero < time)
        #expect(time == SchedulerTime(nanoseconds: 1_000_000_000))
    }
}
