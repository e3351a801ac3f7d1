import Foundation
import StreamdTestSupport
import Testing

/// A real `streamd` started with `NOTIFY_SOCKET`, as systemd starts a `Type=notify` service, tells a
/// real datagram socket when it is ready and when it begins to stop.
@Suite struct ServiceManagerNotificationTests {
    @Test func streamdSendsReadyOnceItListensAndStoppingWhenTerminated() throws {
        let directory = try ShortTemporaryDirectory()
        let notifications = try NotificationSocket(name: directory.path + "/notify")
        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", directory.database],
                                       environment: ["NOTIFY_SOCKET": notifications.name])
        let ready = try #require(notifications.receive(), "no READY=1 in time; stderr: \(daemon.standardError)")
        #expect(ready.split(separator: "\n").first == "READY=1")
        #expect(ready.contains("STATUS=listening on \(directory.socket)"))
        #expect(ready.contains("MAINPID=\(daemon.process.processIdentifier)"))
        // Ready means ready: a client is served at once.
        let client = try SocketClient.connected(to: directory.socket)
        #expect(try client.publish(Array("after ready".utf8), to: "s") == 1)

        daemon.signal(SIGTERM)
        let stopping = try #require(notifications.receive(), "no STOPPING=1 in time; stderr: \(daemon.standardError)")
        #expect(stopping.split(separator: "\n").first == "STOPPING=1")
        #expect(daemon.waitForExit() == 0)
        #expect(notifications.receive(timeout: 0) == nil)
    }

    @Test func withoutNotifySocketNothingIsSentAndAnUnreachableOneIsOnlyAWarning() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", directory.database],
                                       environment: ["NOTIFY_SOCKET": directory.path + "/nobody-listens"])
        try daemon.waitForError(containing: "listening")
        try daemon.waitForError(containing: "could not notify the service manager")
        #expect(try SocketClient.connected(to: directory.socket).publish(Array("x".utf8), to: "s") == 1)
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }
}
