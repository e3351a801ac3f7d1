import StreamProtocol
import Synchronization
import Testing

@testable import StreamClient

@Suite struct FrameRouterTests {
    final class Log: Sendable {
        let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    private func frame(_ message: ServerMessage, requestID: UInt32) throws -> Frame {
        var decoder = FrameDecoder()
        decoder.append(try message.encoded(requestID: requestID))
        return try #require(try decoder.next())
    }

    @Test func repliesGoToTheRequestOfTheirIDEvenOutOfOrder() throws {
        let router = FrameRouter()
        let log = Log()
        let first = try router.register { log.add("first \($0)") }.get()
        let second = try router.register { log.add("second \($0)") }.get()
        #expect(first != second)
        router.route(try frame(.ok, requestID: second))
        router.route(try frame(.pong(nonce: 1), requestID: first))
        #expect(log.all == ["second success(an OK frame)", "first success(a PONG frame)"])
        // A second reply to the same id has nobody waiting and is dropped.
        router.route(try frame(.ok, requestID: second))
        #expect(log.all.count == 2)
    }

    @Test func eventsAndTheEndOfASubscriptionGoToItsFeed() throws {
        let router = FrameRouter()
        let log = Log()
        let id = try router.addSubscription { feed in
            switch feed {
            case let .events(events): log.add("events \(events.map(\.sequence))")
            case let .deliveries(deliveries): log.add("deliveries \(deliveries.map(\.event.sequence))")
            case let .ended(reason, _): log.add("ended \(reason)")
            case let .failed(error): log.add("failed \(error)")
            }
        }.get()
        router.route(try frame(.events(subscriptionID: id, events: [WireEvent(sequence: 4, timestamp: 1, payload: [])]), requestID: 9))
        router.route(try frame(.events(subscriptionID: id + 1, events: [WireEvent(sequence: 5, timestamp: 1, payload: [])]), requestID: 9))
        router.route(try frame(.subscriptionEnded(subscriptionID: id, reason: .streamDeleted, message: "gone"), requestID: 9))
        router.route(try frame(.events(subscriptionID: id, events: [WireEvent(sequence: 6, timestamp: 1, payload: [])]), requestID: 9))
        #expect(log.all == ["events [4]", "ended the stream was deleted"])
    }

    @Test func losingTheConnectionFailsEveryWaiterOnceAndRefusesNewOnes() throws {
        let router = FrameRouter()
        let log = Log()
        _ = router.register { log.add("reply \($0)") }
        _ = router.addSubscription { log.add("feed \($0)") }
        router.lost(.connectionClosed("test"))
        router.lost(.connectionClosed("again"))
        #expect(log.all.count == 2)
        #expect(log.all.allSatisfy { $0.contains("test") })
        guard case .failure(.connectionClosed) = router.register(nil) else {
            Issue.record("a lost router accepted a request")
            return
        }
    }

    @Test func aFatalErrorFromTheServerLosesTheConnection() throws {
        let router = FrameRouter()
        let log = Log()
        _ = router.addSubscription { log.add("feed \($0)") }
        router.route(try frame(.error(code: .shuttingDown, message: "bye"), requestID: 0))
        #expect(router.lostError == .server(code: .shuttingDown, message: "bye"))
        #expect(log.all.count == 1)
    }
}
