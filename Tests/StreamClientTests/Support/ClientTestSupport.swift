import EventLog
import Foundation
import Reactive
import StreamdTestSupport
import Synchronization

@testable import StreamClient

/// A real `streamd` process on a temporary socket and database, which a test can stop as a crash
/// would (SIGKILL) or gracefully (SIGTERM) and start again on the same files.
final class ServerFixture: Sendable {
    let daemon: DaemonFixture

    var socketPath: String { daemon.socket }
    var databasePath: String { daemon.database }

    /// Starts a daemon on a fresh directory.
    init() async throws {
        daemon = try DaemonFixture()
    }

    /// Writes into a fresh database with `prepare` (say, to store a completion, which protocol version
    /// 1 cannot publish), then starts a daemon on it.
    init(preparing prepare: (EventLog) throws -> Void) async throws {
        let directory = try ShortTemporaryDirectory()
        let log = try EventLog(path: directory.database)
        try prepare(log)
        log.close()
        daemon = DaemonFixture(notStartedIn: directory)
        try daemon.start()
    }

    /// A new client connection to the daemon.
    func connect() async throws -> StreamConnection {
        try await StreamConnection.connect(socketPath: socketPath)
    }

    /// Stops the daemon with SIGKILL, as a crash would (or with SIGTERM, when `gracefully`).
    func stop(gracefully: Bool = false) async {
        daemon.stop(with: gracefully ? SIGTERM : SIGKILL)
    }

    /// Starts a new daemon on the same socket and database.
    func restart() async throws {
        try daemon.start()
    }

    /// Stops the daemon (the directory goes when the fixture does).
    func tearDown() async {
        daemon.stop(with: SIGKILL)
    }
}

/// Collects a subscription's events and lets a test wait until a condition on them holds.
final class EventCollector<Value: Sendable, Failure: Error>: Sendable {
    private let state = Mutex<[Event<Value, Failure>]>([])

    /// An observer appending to this collector.
    var observer: Observer<Value, Failure> { Observer { [self] event in state.withLock { $0.append(event) } } }

    var events: [Event<Value, Failure>] { state.withLock { $0 } }
    var values: [Value] { events.compactMap(\.value) }
    var terminal: Event<Value, Failure>? { events.last.flatMap { $0.isTerminating ? $0 : nil } }

    /// Waits (polling, up to `timeout`) until `condition` holds; returns whether it did.
    @discardableResult
    func wait(timeout: Duration = patience, until condition: ([Event<Value, Failure>]) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { state.withLock { condition($0) } }
    }

    /// Waits until `count` values have arrived.
    @discardableResult
    func waitForValues(_ count: Int) async -> Bool {
        await wait { $0.count { $0.value != nil } >= count }
    }
}

/// Bytes of a short string, for payloads.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Asks the daemon until `stream` has `count` live subscribers; returns whether it did.
@discardableResult
func waitForSubscribers(_ count: UInt32, of stream: String, on connection: StreamConnection) async throws -> Bool {
    try await eventually { try await connection.streamInfo(stream).subscribers == count }
}
