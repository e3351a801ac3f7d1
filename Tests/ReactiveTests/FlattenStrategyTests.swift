import Testing
@testable import Reactive

@Suite struct FlattenStrategyTests {
    @Test func mergeAndConcatAreConcurrencyLimitsOfUnlimitedAndOne() {
        #expect(FlattenStrategy.merge == .concurrent(limit: .max))
        #expect(FlattenStrategy.concat == .concurrent(limit: 1))
        #expect(FlattenStrategy.concurrent(limit: 3) != .merge)
    }

    @Test func aConcurrencyLimitOfZeroIsTreatedAsOne() {
        #expect(FlattenStrategy.concurrent(limit: 0) == .concat)
    }

    @Test func strategiesDescribeThemselvesByName() {
        #expect("\(FlattenStrategy.merge)" == "merge")
        #expect("\(FlattenStrategy.concat)" == "concat")
        #expect("\(FlattenStrategy.concurrent(limit: 2))" == "concurrent(limit: 2)")
        #expect("\(FlattenStrategy.latest)" == "latest")
        #expect("\(FlattenStrategy.race)" == "race")
    }
}
