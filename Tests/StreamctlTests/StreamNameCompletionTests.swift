import Foundation
import StreamdTestSupport
import Testing

/// The shells' completion of stream names (the scripts call `streamctl ---completion VERB -- ...`),
/// asked of a real daemon; quick and silent when no daemon answers.
@Suite struct StreamNameCompletionTests {
    /// What the bash script runs when Tab is pressed after `streamctl --socket SOCKET tail `.
    private func complete(socket: String) throws -> (result: CommandResult, seconds: Double) {
        let started = Date()
        let result = try ToolProcess.run("streamctl", [
            "---completion", "tail", "--", "positional@0", "4", "0", "streamctl", "--socket", socket, "tail", "",
        ], timeout: 20)
        return (result, Date().timeIntervalSince(started))
    }

    @Test func theStreamsOfTheRunningDaemonAreOffered() throws {
        let daemon = try DaemonFixture()
        let client = try SocketClient.connected(to: daemon.socket)
        _ = try client.publish(Array("a".utf8), to: "orders")
        _ = try client.publish(Array("b".utf8), to: "audit")
        let (result, _) = try complete(socket: daemon.socket)
        #expect(result.status == 0, "\(result)")
        #expect(Set(result.lines) == ["orders", "audit"], "\(result)")
    }

    @Test func withNoDaemonNothingIsOfferedAtOnceAndNothingIsPrinted() throws {
        let directory = try ShortTemporaryDirectory()
        let (missing, seconds) = try complete(socket: directory.socket)
        #expect(missing.status == 0 && missing.standardOutput.isEmpty && missing.standardError.isEmpty, "\(missing)")
        #expect(seconds < 5, "took \(seconds) s")
    }

    @Test func aSocketThatNeverAnswersIsGivenUpOnWithinTheDeadline() throws {
        let directory = try ShortTemporaryDirectory()
        // Listens but never accepts: the connection sits in the backlog and HELLO is never answered.
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(directory.socket.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0 && listen(descriptor, 8) == 0)
        let (result, seconds) = try complete(socket: directory.socket)
        #expect(result.status == 0 && result.standardOutput.isEmpty && result.standardError.isEmpty, "\(result)")
        #expect(seconds < 5, "took \(seconds) s; the deadline is 0.5 s")
    }
}
