import Foundation
import StreamdTestSupport
import Testing

@testable import StreamServer

/// The `sd_notify` protocol against a real datagram socket, at a path and in the abstract namespace.
@Suite struct ServiceManagerNotifierTests {
    @Test func aNotificationArrivesAsOneDatagramAtTheSocketPath() throws {
        let directory = try ShortTemporaryDirectory()
        let listener = try NotificationSocket(name: directory.path + "/notify")
        let notifier = try #require(ServiceManagerNotifier(environment: ["NOTIFY_SOCKET": listener.name]))
        try notifier.send(ServiceManagerNotifier.ready(status: "listening on /run/streamd/streamd.sock"))
        #expect(listener.receive() == "READY=1\nSTATUS=listening on /run/streamd/streamd.sock\nMAINPID=\(getpid())")
        try notifier.send(ServiceManagerNotifier.stopping(status: "stopping"))
        #expect(listener.receive() == "STOPPING=1\nSTATUS=stopping")
    }

    @Test func anAbstractSocketNamedWithAnAtSignIsReached() throws {
        let listener = try NotificationSocket(name: "@streamd-notify-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try ServiceManagerNotifier(socketPath: listener.name).send("READY=1")
        #expect(listener.receive() == "READY=1")
    }

    @Test func noNotifySocketMeansNoNotifier() {
        #expect(ServiceManagerNotifier(environment: [:]) == nil)
        #expect(ServiceManagerNotifier(environment: ["NOTIFY_SOCKET": ""]) == nil)
    }

    @Test func aSocketNobodyListensOnIsASentenceNamingIt() throws {
        let directory = try ShortTemporaryDirectory()
        let error = #expect(throws: StreamServerError.self) {
            try ServiceManagerNotifier(socketPath: directory.path + "/nobody").send("READY=1")
        }
        #expect(error?.description.contains("cannot notify the service manager on \(directory.path)/nobody") == true)
        let relative = #expect(throws: StreamServerError.self) { try ServiceManagerNotifier(socketPath: "notify").send("READY=1") }
        #expect(relative?.description.contains("NOTIFY_SOCKET=notify is not a socket path") == true)
    }
}
