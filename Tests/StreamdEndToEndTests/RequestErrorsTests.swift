import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

/// The error table of protocol.md, request by request, against the live daemon: codes 10 and up
/// answer one request and the connection goes on.
@Suite struct RequestErrorsTests {
    @Test func eachRequestErrorHasItsCodeAndLeavesTheConnectionOpen() throws {
        let daemon = try DaemonFixture()
        let client = try SocketClient.connected(to: daemon.socket)
        func expectError(_ message: ClientMessage, _ code: ErrorCode, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let reply = try client.request(message)
            #expect(reply.errorCode == code, "\(message) got \(reply)", sourceLocation: sourceLocation)
            let nonce = UInt64.random(in: 0...UInt64.max)
            #expect(try client.request(.ping(nonce: nonce)) == .pong(nonce: nonce), sourceLocation: sourceLocation)
        }
        try client.publish([1], to: "s")
        try expectError(.getStreamInfo(name: "missing"), .streamNotFound)
        try expectError(.subscribe(.init(subscriptionID: 1, stream: "missing", start: .all, credit: 1)), .streamNotFound)
        try expectError(.createStream(name: "s", policy: .init(capacity: 3)), .streamExists)
        try expectError(.publish(.init(stream: "s", expectedLastSequence: 5, payload: [2])), .wrongLastSequence)
        try expectError(.credit(subscriptionID: 9, credit: 1), .subscriptionNotFound)
        try expectError(.unsubscribe(subscriptionID: 9), .subscriptionNotFound)
        guard case .subscribed = try client.request(.subscribe(.init(subscriptionID: 1, stream: "s", start: .newOnly, credit: 1))) else {
            throw TestFailure("not subscribed")
        }
        try expectError(.subscribe(.init(subscriptionID: 1, stream: "s", start: .all, credit: 1)), .subscriptionIDInUse)
        try expectError(.hello(minVersion: 1, maxVersion: 1, clientName: "again"), .invalidArgument)
        try expectError(.publish(.init(stream: "bad name", payload: [3])), .invalidStreamName)
        // The subscription opened above still works after all of it.
        try client.publish([4], to: "s")
        #expect(try client.events(of: 1, count: 1).map(\.sequence) == [2])
    }

    @Test func aConnectionOverItsSubscriptionLimitIsRefusedTheNextOneAndGoesOn() throws {
        let daemon = try DaemonFixture()
        let client = try SocketClient.connected(to: daemon.socket)
        guard case let .welcome(_, _, limit, _) = try SocketClient(path: daemon.socket).request(.hello(minVersion: 1, maxVersion: 1, clientName: "x")) else {
            throw TestFailure("no WELCOME")
        }
        try client.publish([1], to: "s")
        for id in 1...limit {
            guard case .subscribed = try client.request(.subscribe(.init(subscriptionID: id, stream: "s", start: .newOnly, credit: 1))) else {
                throw TestFailure("subscription \(id) of \(limit) refused")
            }
        }
        let over = try client.request(.subscribe(.init(subscriptionID: limit + 1, stream: "s", start: .newOnly, credit: 1)))
        #expect(over.errorCode == .limitExceeded)
        // Ending one makes room again.
        #expect(try client.request(.unsubscribe(subscriptionID: 1)) == .subscriptionEnded(subscriptionID: 1, reason: .unsubscribed, message: "unsubscribed"))
        guard case .subscribed = try client.request(.subscribe(.init(subscriptionID: limit + 1, stream: "s", start: .newOnly, credit: 1))) else {
            throw TestFailure("no room after an unsubscribe")
        }
    }
}
