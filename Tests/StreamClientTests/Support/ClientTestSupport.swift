import Foundation
import Reactive
import Synchronization

@testable import StreamClient

/// A temporary directory with a short socket path (Unix socket paths must stay under ~100 bytes) and a
/// database file, and a running `TestServer` on them.
final class ServerFixture: Sendable {
    let socketPath: String
    let directory: String
    let server: Mutex<TestServer?>

    var databasePath: String { directory + "/log.sqlite" }

    init() async throws {
        let tag = String(UUID().uuidString.prefix(8))
        socketPath = "/tmp/sc-\(tag).sock"
        directory = NSTemporaryDirectory() + "streamclient-tests-" + tag
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        server = Mutex(try await TestServer(socketPath: socketPath, databasePath: directory + "/log.sqlite"))
    }

    /// A new client connection to the server.
    func connect() async throws -> StreamConnection {
        try await StreamConnection.connect(socketPath: socketPath)
    }

    /// Stops the server, as a crash would (or as a SIGTERM would, when `gracefully`).
    func stop(gracefully: Bool = false) async {
        let running = server.withLock { server in
            defer { server = nil }
            return server
        }
        await running?.stop(gracefully: gracefully)
    }

    /// Starts a new server on the same socket and database.
    func restart() async throws {
        let fresh = try await TestServer(socketPath: socketPath, databasePath: databasePath)
        server.withLock { $0 = fresh }
    }

    /// Stops the server and removes its files.
    func tearDown() async {
        await stop()
        try? FileManager.default.removeItem(atPath: socketPath)
        try? FileManager.default.removeItem(atPath: directory)
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
    func wait(timeout: Duration = .seconds(5), until condition: ([Event<Value, Failure>]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if state.withLock({ condition($0) }) { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return state.withLock { condition($0) }
    }

    /// Waits until `count` values have arrived.
    @discardableResult
    func waitForValues(_ count: Int, timeout: Duration = .seconds(5)) async -> Bool {
        await wait(timeout: timeout) { $0.count { $0.value != nil } >= count }
    }
}

/// Bytes of a short string, for payloads.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Asks the daemon (up to a deadline) until `stream` has `count` live subscribers; returns whether it did.
@discardableResult
func waitForSubscribers(_ count: UInt32, of stream: String, on connection: StreamConnection) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(5)
    while ContinuousClock.now < deadline {
        if try await connection.streamInfo(stream).subscribers == count { return true }
        try await Task.sleep(for: .milliseconds(2))
    }
    return false
}
