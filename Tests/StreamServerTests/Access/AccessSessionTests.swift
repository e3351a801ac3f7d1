import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

/// A session held to an access control: what each request needs, and what a refusal looks like.
@Suite struct AccessSessionTests {
    static let owner: UInt32 = 900
    static let alice = AccessIdentity(uid: 1001, gid: 1001, pid: 77, userName: "alice")
    static let bob = AccessIdentity(uid: 1002, gid: 1002, pid: 78, userName: "bob", groups: [2000])
    static let names = AccessNames(user: { ["alice": 1001, "bob": 1002][$0] }, group: { ["ops": 2000][$0] })

    /// An access file with `text` and the control that loaded it, logging to `log`.
    final class Setup: Sendable {
        let directory: ShortTemporaryDirectory
        let control: AccessControl
        let log = CapturedLog()

        init(_ text: String?) throws {
            directory = try ShortTemporaryDirectory()
            var path: String?
            if let text {
                let file = directory.path + "/acl.json"
                try Data(text.utf8).write(to: URL(fileURLWithPath: file))
                chmod(file, 0o600)
                path = file
            }
            control = try AccessControl(file: path, ownerUID: AccessSessionTests.owner, names: AccessSessionTests.names, logger: log.logger)
        }

        func client(_ identity: AccessIdentity, of hub: StreamHub) throws -> TestClient {
            try TestClient.connected(to: hub, access: ConnectionAccess(identity: identity, control: control))
        }
    }

    static func denial(_ reply: ServerMessage) -> String? {
        guard case let .error(code, message) = reply, code == .permissionDenied else { return nil }
        return message
    }

    @Test func withoutAnAccessFileAnotherUserIsRefusedEverythingButTheConnectionStaysOpen() throws {
        let (hub, storage) = try makeHub()
        let setup = try Setup(nil)
        let alice = try setup.client(Self.alice, of: hub)
        let refusal = Self.denial(try alice.request(.publish(.init(stream: "orders", payload: [1]))))
        #expect(refusal == "user alice (uid 1001) may not publish to stream orders; streamd has no access file, so only its own user and root may use it; ask its operator to grant it in one (streamd --acl PATH).")
        #expect(Self.denial(try alice.request(.subscribe(.init(subscriptionID: 1, stream: "orders", start: .all, credit: 10)))) != nil)
        #expect(Self.denial(try alice.request(.createStream(name: "orders", policy: StreamPolicy()))) != nil)
        #expect(Self.denial(try alice.request(.listStreams)) == "user alice (uid 1001) may not list streams (no rule grants it any right); streamd has no access file, so only its own user and root may use it; ask its operator to grant it in one (streamd --acl PATH).")
        #expect(Self.denial(try alice.request(.getStats)) != nil)
        #expect(Self.denial(try alice.request(.verify(stream: nil))) != nil)
        #expect(try alice.request(.ping(nonce: 5)) == .pong(nonce: 5))
        #expect(!alice.session.isClosed)
        #expect(try hub.log.streamInfo("orders") == nil)
        #expect(setup.log.all.contains("warning refused publish: permission denied operation=publish pid=77 right=publish stream=orders uid=1001 user=alice"))
        _ = storage
    }

    @Test func theDaemonsOwnUserAndRootMayDoEverythingAndTheirChangesAreAudited() throws {
        let (hub, storage) = try makeHub()
        let setup = try Setup(nil)
        for identity in [AccessIdentity(uid: Self.owner, gid: 1, pid: 5, userName: "streamd"), AccessIdentity(uid: 0, gid: 0, pid: 6, userName: "root")] {
            let client = try setup.client(identity, of: hub)
            let stream = "s\(identity.uid)"
            guard case .streamInfo = try client.request(.createStream(name: stream, policy: StreamPolicy())) else { throw TestFailure("create failed") }
            #expect(try client.publish([1], to: stream) == 1)
            guard case .ok = try client.request(.deleteStream(name: stream)) else { throw TestFailure("rm failed") }
        }
        #expect(setup.log.all.contains {
            $0.hasPrefix("notice admin: create s900 detail=capacity unlimited, max-age unlimited, max-bytes unlimited, default start ")
                && $0.hasSuffix(" operation=create pid=5 stream=s900 uid=900 user=streamd")
        })
        #expect(setup.log.all.contains("notice admin: rm s0 operation=rm pid=6 stream=s0 uid=0 user=root"))
        _ = storage
    }

    @Test func readAllowsSubscribeAndInfoButNotPublish() throws {
        let (hub, storage) = try makeHub()
        _ = try hub.createStream("public.news", policy: StreamPolicy())
        _ = try hub.publish(to: "public.news", expectedLastSequence: nil, [.init(messageID: nil, payload: [7])])
        let setup = try Setup(#"{"rules": [{"user": "alice", "streams": "public.*", "allow": ["read"]}]}"#)
        let alice = try setup.client(Self.alice, of: hub)
        guard case .streamInfo = try alice.request(.getStreamInfo(name: "public.news")) else { throw TestFailure("info refused") }
        guard case .subscribed = try alice.request(.subscribe(.init(subscriptionID: 1, stream: "public.news", start: .all, credit: 10))) else { throw TestFailure("subscribe refused") }
        #expect(try alice.waitForEvents(of: 1, count: 1).map(\.payload) == [[7]])
        let refusal = Self.denial(try alice.request(.publish(.init(stream: "public.news", payload: [8]))))
        #expect(refusal?.hasPrefix("user alice (uid 1001) may not publish to stream public.news; ask the daemon's operator to grant it in the access file \(setup.directory.path)/acl.json") == true)
        #expect(Self.denial(try alice.request(.getStreamInfo(name: "private"))) == "user alice (uid 1001) may not see stream private (any right on it shows its description); ask the daemon's operator to grant it in the access file \(setup.directory.path)/acl.json.")
        #expect(try hub.log.streamInfo("public.news")?.lastSequence == 1)
        _ = storage
    }

    @Test func publishAllowsExistingStreamsButCreatingOneByPublishingNeedsAdmin() throws {
        let (hub, storage) = try makeHub()
        _ = try hub.createStream("orders", policy: StreamPolicy())
        let setup = try Setup(#"{"rules": [{"user": "alice", "streams": "*", "allow": ["publish"]}, {"user": "alice", "streams": "mine.*", "allow": ["admin"]}]}"#)
        let alice = try setup.client(Self.alice, of: hub)
        #expect(try alice.publish([1], to: "orders") == 1)
        #expect(Self.denial(try alice.request(.endStream(stream: "orders", failure: nil, expectedLastSequence: nil))) == nil)
        let refusal = Self.denial(try alice.request(.publishBatch(.init(stream: "fresh", entries: [.init(payload: [1])]))))
        #expect(refusal?.hasPrefix("user alice (uid 1001) may not create stream fresh (publishing to a missing stream creates it, which needs the admin right; it has publish only)") == true)
        #expect(try hub.log.streamInfo("fresh") == nil)
        #expect(Self.denial(try alice.request(.truncateStream(name: "orders", truncation: .keepLast(0), dryRun: true))) != nil)
        #expect(Self.denial(try alice.request(.subscribe(.init(subscriptionID: 1, stream: "orders", start: .all, credit: 1))))?.hasPrefix("user alice (uid 1001) may not read stream orders;") == true)
        // Any right on a stream shows its description, as every streamctl verb looks it up first.
        guard case .streamInfo = try alice.request(.getStreamInfo(name: "orders")) else { throw TestFailure("info refused to a publisher") }
        // With admin on the name, publishing creates the stream, and that creation is audited.
        #expect(try alice.publish([1], to: "mine.a") == 1)
        #expect(setup.log.all.contains { $0.hasPrefix("notice admin: create mine.a detail=by publishing to the missing stream operation=create pid=77") })
        _ = storage
    }

    @Test func refusedPipelinedPublishesAreLeftToTheQueueAndAnsweredEachInOrder() throws {
        let (hub, storage) = try makeHub()
        let setup = try Setup(#"{"rules": [{"user": "alice", "streams": "open", "allow": ["publish"]}]}"#)
        let owner = try setup.client(AccessIdentity(uid: Self.owner, gid: 1, pid: 5, userName: "streamd"), of: hub)
        // Pipelined publishes of the owner make both streams known to exist.
        for stream in ["open", "closed"] { #expect(try owner.publish([0], to: stream) == 1) }
        let alice = try setup.client(Self.alice, of: hub)
        let first = alice.makeRequestID()
        var bytes: [UInt8] = []
        for (offset, stream) in ["open", "closed", "closed", "open"].enumerated() {
            bytes += try ClientMessage.publish(.init(stream: stream, payload: [UInt8(offset)])).encoded(requestID: first + UInt32(offset))
        }
        for _ in 1..<4 { _ = alice.makeRequestID() }
        let deferred = Deferred()
        alice.session.receive(bytes, deferringWaitsTo: deferred.take)
        #expect(deferred.count == 1)
        deferred.runAll()
        let replies = try alice.replies(from: first, count: 4)
        #expect(replies.map(\.requestID) == [first, first + 1, first + 2, first + 3])
        #expect(replies.map { Self.denial($0.message) != nil } == [false, true, true, false])
        #expect(try hub.log.streamInfo("closed")?.lastSequence == 1)
        #expect(try hub.log.streamInfo("open")?.lastSequence == 3)
        _ = storage
    }

    @Test func listingShowsOnlyReadableStreamsAndStatsAndVerifyNeedTheRightEverywhere() throws {
        let (hub, storage) = try makeHub()
        for name in ["public.a", "public.b", "secret"] { _ = try hub.createStream(name, policy: StreamPolicy()) }
        let setup = try Setup(#"{"rules": [{"user": "alice", "streams": "public.*", "allow": ["read", "admin"]}, {"group": "ops", "streams": "*", "allow": ["read", "admin"]}]}"#)
        let alice = try setup.client(Self.alice, of: hub)
        guard case let .streamList(list) = try alice.request(.listStreams) else { throw TestFailure("list refused") }
        #expect(list.map(\.name).sorted() == ["public.a", "public.b"])
        #expect(Self.denial(try alice.request(.getStats))?.contains("read the daemon's statistics (that needs read on every stream, a rule with \"streams\": \"*\")") == true)
        #expect(Self.denial(try alice.request(.verify(stream: nil))) != nil)
        guard case .verifyReport = try alice.request(.verify(stream: "public.a")) else { throw TestFailure("verify of an administered stream refused") }
        let bob = try setup.client(Self.bob, of: hub)
        guard case let .streamList(all) = try bob.request(.listStreams) else { throw TestFailure("list refused") }
        #expect(all.count == 3)
        guard case .stats = try bob.request(.getStats) else { throw TestFailure("stats refused to a reader of *") }
        guard case .verifyReport = try bob.request(.verify(stream: nil)) else { throw TestFailure("verify refused to an admin of *") }
        _ = storage
    }

    @Test func aReloadAppliesToConnectionsAlreadyOpen() throws {
        let (hub, storage) = try makeHub()
        _ = try hub.createStream("s", policy: StreamPolicy())
        let setup = try Setup(#"{"rules": []}"#)
        let alice = try setup.client(Self.alice, of: hub)
        #expect(Self.denial(try alice.request(.getStreamInfo(name: "s"))) != nil)
        let file = setup.directory.path + "/acl.json"
        try Data(#"{"rules": [{"user": "alice", "streams": "s", "allow": ["read"]}]}"#.utf8).write(to: URL(fileURLWithPath: file))
        #expect(setup.control.reload() == 1)
        guard case .streamInfo = try alice.request(.getStreamInfo(name: "s")) else { throw TestFailure("still refused after the reload") }
        _ = storage
    }

    @Test func aReloadThatWithdrawsReadEndsTheSubscriptionsThatReliedOnIt() throws {
        let (hub, storage) = try makeHub()
        for name in ["kept", "lost"] { _ = try hub.createStream(name, policy: StreamPolicy()) }
        let setup = try Setup(#"{"rules": [{"user": "alice", "streams": "*", "allow": ["read"]}]}"#)
        let alice = try setup.client(Self.alice, of: hub)
        for (id, name) in [(UInt32(1), "kept"), (2, "lost")] {
            guard case .subscribed = try alice.request(.subscribe(.init(subscriptionID: id, stream: name, start: .all, credit: 10))) else { throw TestFailure("subscribe refused") }
        }
        try Data(#"{"rules": [{"user": "alice", "streams": "kept", "allow": ["read"]}]}"#.utf8).write(to: URL(fileURLWithPath: setup.directory.path + "/acl.json"))
        #expect(setup.control.reload() == 1)
        alice.session.endSubscriptionsNoLongerAllowed()
        #expect(alice.session.subscriptionCount == 1)
        let ended = alice.collector.received.compactMap { frame -> (UInt32, SubscriptionEndReason, String)? in
            if case let .subscriptionEnded(id, reason, message) = frame.message { return (id, reason, message) }
            return nil
        }
        #expect(ended.count == 1)
        #expect(ended.first?.0 == 2)
        #expect(ended.first?.1 == .error)
        #expect(ended.first?.2.hasPrefix("user alice (uid 1001) may not read stream lost any more (the access file was reloaded)") == true)
        #expect(setup.log.all.contains { $0.hasPrefix("warning refused subscription (ended by a reload)") && $0.contains("stream=lost") })
        _ = storage
    }
}

/// Work a session deferred, kept to be run when the test says.
///
/// `@unchecked Sendable` is safe because the session calls `take` on the test's own thread (inside
/// `receive`), and only the test's thread runs and counts the work.
final class Deferred: @unchecked Sendable {
    private var work: [@Sendable () -> Void] = []
    var count: Int { work.count }
    func take(_ body: @escaping @Sendable () -> Void) { work.append(body) }
    func runAll() { for body in work { body() }; work = [] }
}
