import EventLog
import Foundation
import StreamClient
import StreamdTestSupport
import Synchronization
import Testing

/// The one `StreamStore` contract, written once against `some StreamStore` and run at both doors: an
/// in-process `EventLog` on a fresh SQLite file, and a real `streamd` process through a `StreamConnection`.
@Suite struct StreamStoreTests {
    @Test(arguments: Door.allCases)
    func aPolicyComesBackAsItWasGivenAndAnExistingStreamKeepsItsOwn(door: Door) async throws {
        try await door.withStore { try await Contract.policyRoundTrip($0) }
    }

    @Test(arguments: Door.allCases)
    func receiptsNumberEveryAppendOnceWithNoGap(door: Door) async throws {
        try await door.withStore { try await Contract.receipts($0) }
    }

    @Test(arguments: Door.allCases)
    func aCapacityKeepsOnlyTheLastEvents(door: Door) async throws {
        try await door.withStore { try await Contract.retention($0) }
    }

    @Test(arguments: Door.allCases)
    func everyStartPositionStartsWhereItSaysThenGoesOnLive(door: Door) async throws {
        try await door.withStore { try await Contract.startPositions($0) }
    }

    @Test(arguments: Door.allCases)
    func historyHandsOverToLiveWithNoGapAndNoDuplicateWhileAppendsGoOn(door: Door) async throws {
        try await door.withStore { try await Contract.handOver($0) }
    }

    @Test(arguments: Door.allCases)
    func aStoredCompletionCompletesReadersAndEndsTheStream(door: Door) async throws {
        try await door.withStore { try await Contract.completion($0) }
    }

    @Test(arguments: Door.allCases)
    func aStoredFailureFailsReadersWithItsMessage(door: Door) async throws {
        try await door.withStore { try await Contract.failure($0) }
    }

    @Test(arguments: Door.allCases)
    func aDeletedStreamIsGoneAndStartsAgainAtOne(door: Door) async throws {
        try await door.withStore { try await Contract.deletion($0) }
    }
}

/// The two doors of a store.
enum Door: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// An `EventLog` in this process, on a SQLite file of its own.
    case eventLog
    /// A `streamd` process of its own, on a fresh database, through a `StreamConnection`.
    case streamd

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh store of this door, closed afterwards.
    func withStore(_ body: (any StreamStore) async throws -> Void) async throws {
        switch self {
        case .eventLog:
            let directory = try ShortTemporaryDirectory()
            let log = try EventLog(path: directory.database)
            defer { log.close() }
            try await body(log)
        case .streamd:
            let daemon = try DaemonFixture()
            let connection = try await StreamConnection.connect(socketPath: daemon.socket)
            defer { connection.close() }
            try await body(connection)
        }
    }
}

/// The assertions, once, for any store.
enum Contract {
    static func policyRoundTrip(_ store: some StreamStore) async throws {
        let policy = StreamPolicy(capacity: .last(100))
        #expect(try await store.streamInfo("policy") == nil)
        let created = try await store.ensureStream("policy", policy: policy)
        #expect(created.policy == policy)
        #expect(created.count == 0 && created.lastSequence == 0 && created.state == .open)
        #expect(try await store.streamInfo("policy")?.policy == policy)
        let again = try await store.ensureStream("policy", policy: StreamPolicy(capacity: .last(5)))
        #expect(again.policy == policy)
        #expect(try await store.streamInfo("policy")?.policy.capacity == .last(100))
    }

    static func receipts(_ store: some StreamStore) async throws {
        try await store.ensureStream("r", policy: StreamPolicy())
        let first = try await store.append(bytes("a"), to: "r")
        #expect(first.stream == "r" && first.sequence == 1 && first.lastSequence == 1 && !first.duplicate)
        let batch = try await store.append(contentsOf: ["b", "c", "d"].map(bytes), to: "r")
        #expect(batch.map(\.sequence) == [2, 3, 4])
        #expect(batch.allSatisfy { $0.firstSequence == $0.lastSequence && $0.timestamp >= first.timestamp })
        #expect(try await store.append(bytes("e"), to: "r").sequence == 5)
        let info = try #require(try await store.streamInfo("r"))
        #expect(info.count == 5 && info.firstSequence == 1 && info.lastSequence == 5)
        let read = try await Reader.read(store.follow("r", from: .all), count: 5)
        #expect(read.values.map(\.sequence) == Array(1...5))
        #expect(read.values.map { text($0.payload) } == ["a", "b", "c", "d", "e"])
        #expect(read.values.last?.timestamp == info.lastTime)
    }

    static func retention(_ store: some StreamStore) async throws {
        try await store.ensureStream("kept", policy: StreamPolicy(capacity: .last(3)))
        for index in 1...5 { _ = try await store.append(bytes("\(index)"), to: "kept") }
        let info = try #require(try await store.streamInfo("kept"))
        #expect(info.count == 3 && info.firstSequence == 3 && info.lastSequence == 5)
        let read = try await Reader.read(store.follow("kept", from: .all), count: 3)
        #expect(read.values.map(\.sequence) == [3, 4, 5])
    }

    static func startPositions(_ store: some StreamStore) async throws {
        try await store.ensureStream("p", policy: StreamPolicy())
        _ = try await store.append(contentsOf: (1...5).map { bytes("\($0)") }, to: "p")
        let all = try await Reader.start(store.follow("p", from: .all))
        let last = try await Reader.start(store.follow("p", from: .last(2)))
        let from = try await Reader.start(store.follow("p", from: .from(sequence: 3)))
        let newOnly = try await Reader.start(store.follow("p", from: .newOnly))
        #expect(await all.wait(for: 5))
        #expect(await last.wait(for: 2))
        #expect(await from.wait(for: 3))
        // The next append shows each reader's history was exactly what it read: it comes right after.
        _ = try await store.append(bytes("6"), to: "p")
        for (reader, count) in [(all, 6), (last, 3), (from, 4), (newOnly, 1)] { #expect(await reader.wait(for: count)) }
        #expect(all.values.map(\.sequence) == Array(1...6))
        #expect(last.values.map(\.sequence) == [4, 5, 6])
        #expect(from.values.map(\.sequence) == [3, 4, 5, 6])
        #expect(newOnly.values.map(\.sequence) == [6])
        for reader in [all, last, from, newOnly] { reader.stop() }
    }

    static func handOver(_ store: some StreamStore) async throws {
        try await store.ensureStream("h", policy: StreamPolicy())
        _ = try await store.append(contentsOf: (1...200).map { bytes("\($0)") }, to: "h")
        let writing = Task {
            for index in 201...400 { _ = try await store.append(bytes("\(index)"), to: "h") }
        }
        let reader = try await Reader.start(store.follow("h", from: .all))
        try await writing.value
        #expect(await reader.wait(for: 400))
        try requireContiguous(reader.values.map(\.sequence), 1...400, "a reader started while appends went on")
        #expect(reader.values.map { text($0.payload) } == (1...400).map { "\($0)" })
        reader.stop()
    }

    static func completion(_ store: some StreamStore) async throws {
        try await store.ensureStream("c", policy: StreamPolicy())
        let live = try await Reader.start(store.follow("c", from: .all))
        _ = try await store.append(contentsOf: ["x", "y"].map(bytes), to: "c")
        #expect(try await store.appendCompleted(to: "c").sequence == 3)
        #expect(await live.waitForEnd())
        #expect(live.values.map(\.sequence) == [1, 2] && live.ending == .completed)
        let later = try await Reader.read(store.follow("c", from: .all), count: 2)
        #expect(await later.waitForEnd())
        #expect(later.values.map { text($0.payload) } == ["x", "y"] && later.ending == .completed)
        #expect(try await store.streamInfo("c")?.state == .completed)
        await #expect(throws: (any Error).self) { try await store.append(bytes("z"), to: "c") }
        await #expect(throws: (any Error).self) { try await store.appendCompleted(to: "c") }
    }

    static func failure(_ store: some StreamStore) async throws {
        try await store.ensureStream("f", policy: StreamPolicy())
        _ = try await store.append(bytes("x"), to: "f")
        #expect(try await store.appendFailed(to: "f", message: "the feed broke").sequence == 2)
        let read = try await Reader.read(store.follow("f", from: .all), count: 1)
        #expect(await read.waitForEnd())
        #expect(read.values.map(\.sequence) == [1])
        #expect(read.ending == .failed(StreamFailure("the feed broke")))
        #expect(try await store.streamInfo("f")?.state == .failed)
        await #expect(throws: (any Error).self) { try await store.append(bytes("y"), to: "f") }
    }

    static func deletion(_ store: some StreamStore) async throws {
        try await store.ensureStream("d", policy: StreamPolicy(capacity: .last(100)))
        _ = try await store.append(contentsOf: ["1", "2", "3"].map(bytes), to: "d")
        try await store.deleteStream("d")
        #expect(try await store.streamInfo("d") == nil)
        await #expect(throws: (any Error).self) { try await store.deleteStream("d") }
        let reader = try await Reader.start(store.follow("d", from: .all))
        #expect(await reader.waitForEnd())
        #expect(reader.values.isEmpty && reader.ending?.isStorageFailure == true)
        let again = try await store.ensureStream("d", policy: StreamPolicy())
        #expect(again.lastSequence == 0 && again.policy == StreamPolicy())
        #expect(try await store.append(bytes("new"), to: "d").sequence == 1)
    }
}

/// How a reading producer ended.
enum Ending: Equatable {
    case completed
    case failed(StreamFailure)
    case interrupted

    var isStorageFailure: Bool {
        if case let .failed(failure) = self { return failure.origin == .storage }
        return false
    }
}

/// One start of a store's `follow`, collecting what it delivers.
final class Reader: Sendable {
    private struct State {
        var values: [StoredEvent] = []
        var ending: Ending?
    }
    private let state = Mutex(State())
    private let started = Mutex<(any Disposable)?>(nil)

    var values: [StoredEvent] { state.withLock { $0.values } }
    var ending: Ending? { state.withLock { $0.ending } }

    /// Starts `producer`; the returned reader collects until stopped.
    static func start(_ producer: SignalProducer<StoredEvent, StreamFailure>) async throws -> Reader {
        let reader = Reader()
        let disposable = producer.start { event in
            reader.state.withLock { state in
                switch event {
                case let .value(value): state.values.append(value)
                case .completed: state.ending = .completed
                case let .failed(failure): state.ending = .failed(failure)
                case .interrupted: state.ending = .interrupted
                }
            }
        }
        reader.started.withLock { $0 = disposable }
        return reader
    }

    /// Starts `producer` and waits for `count` values, throwing if they do not come.
    static func read(_ producer: SignalProducer<StoredEvent, StreamFailure>, count: Int) async throws -> Reader {
        let reader = try await start(producer)
        guard await reader.wait(for: count) else {
            throw TestFailure("expected \(count) events, got \(reader.values.map(\.sequence)), ending \(String(describing: reader.ending))")
        }
        return reader
    }

    /// Waits until `count` values have arrived; returns whether they did (false if the producer ended short).
    func wait(for count: Int) async -> Bool {
        await eventually { self.values.count >= count || (self.ending != nil && self.values.count < count) }
        return values.count >= count
    }

    /// Waits until the producer ends; returns whether it did.
    func waitForEnd() async -> Bool {
        await eventually { self.ending != nil }
    }

    /// Disposes the start.
    func stop() { started.withLock { $0 }?.dispose() }
}
