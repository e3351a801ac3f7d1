import EventLog
import Testing

@Suite struct StreamLabelBoundTests {
    @Test func theFirstStreamsUpToTheLimitAreLabelledByNameAndTheRestShareOneLabel() {
        var bound = StreamLabelBound(limit: 2)
        #expect(bound.label(for: "a") == "a")
        #expect(bound.label(for: "b") == "b")
        #expect(bound.label(for: "c") == StreamLabelBound.otherStreams)
        #expect(bound.label(for: "d") == StreamLabelBound.otherStreams)
        #expect(bound.namedCount == 2)
    }

    @Test func aLabelledStreamKeepsItsLabelAfterTheBoundIsReached() {
        var bound = StreamLabelBound(limit: 1)
        #expect(bound.label(for: "a") == "a")
        #expect(bound.label(for: "b") == StreamLabelBound.otherStreams)
        #expect(bound.label(for: "a") == "a")
        #expect(bound.label(for: "a") == "a")
        #expect(bound.namedCount == 1)
    }

    @Test func manyStreamsNeverMakeMoreThanTheLimitPlusOneLabels() {
        var bound = StreamLabelBound(limit: 100)
        let labels = Set((0..<10_000).map { bound.label(for: "stream-\($0 % 5_000)") })
        #expect(labels.count == 101)
        #expect(labels.contains(StreamLabelBound.otherStreams))
    }

    @Test func aLimitOfZeroSumsEveryStreamAndANegativeOneCountsAsZero() {
        var none = StreamLabelBound(limit: 0)
        #expect(none.label(for: "a") == StreamLabelBound.otherStreams)
        var negative = StreamLabelBound(limit: -3)
        #expect(negative.limit == 0)
        #expect(negative.label(for: "a") == StreamLabelBound.otherStreams)
    }

    @Test func theSharedLabelIsNoValidStreamName() {
        #expect(throws: EventLogError.self) { try StreamName.validate(StreamLabelBound.otherStreams) }
    }
}
