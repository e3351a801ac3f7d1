import Testing
@testable import EventLog

/// A commit finds each of its streams by name, whether it writes one stream or many.
@Suite struct CommitStreamsTests {
    private func state(_ name: String, id: Int64) -> StreamState {
        StreamState(
            id: id, name: name, policy: StreamPolicy(), firstSequence: 1, lastSequence: 0, lastTimestamp: 0,
            storedBytes: 0, terminal: 0, created: 0)
    }

    @Test func streamsAreFoundByNameInTheOrderTheyWereAdded() {
        var streams = CommitStreams()
        #expect(streams.slot(of: "a") == nil)
        #expect(streams.add(state("a", id: 1)) == 0)
        #expect(streams.slot(of: "a") == 0)
        #expect(streams.slot(of: "b") == nil)
        let names = (0..<40).map { "stream-\($0)" }
        for (index, name) in names.enumerated() {
            #expect(streams.add(state(name, id: Int64(index + 2))) == index + 1)
        }
        #expect(streams.slot(of: "a") == 0)
        for (index, name) in names.enumerated() {
            #expect(streams.slot(of: name) == index + 1)
            #expect(streams[index + 1].state.name == name)
        }
        #expect(streams.slot(of: "missing") == nil)
        #expect(streams.count == 41)
    }

    @Test func aPartKeepsWhatTheCommitSetOnIt() {
        var streams = CommitStreams()
        let slot = streams.add(state("a", id: 1))
        streams[slot].state.lastSequence = 7
        streams[slot].unsavedBlocks = 3
        streams[slot].failure = EventLogError(.io, "disk")
        #expect(streams.parts.map(\.state.lastSequence) == [7])
        #expect(streams[slot].unsavedBlocks == 3)
        #expect(streams[slot].failure?.code == .io)
    }
}
