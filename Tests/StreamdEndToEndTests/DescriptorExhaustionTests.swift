import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

/// A daemon at its open-file limit neither spins nor leaves new clients hanging (issue 14, defect 6:
/// an event loop spun at 100% in accept4 = EMFILE under `ulimit -n 128`).
@Suite struct DescriptorExhaustionTests {
    // prlimit (util-linux) sets the daemon's open-file limit; without it the test cannot run.
    @Test(.enabled(if: hasPrlimit, "needs /usr/bin/prlimit (util-linux)"))
    func atTheDescriptorLimitTheDaemonIdlesRefusesNewClientsAndServesAgainOnceSomeLeave() throws {
        // A long handshake and idle timeout, so only descriptors limit the connections here.
        let daemon = try DaemonFixture(extra: ["--max-connections", "10000", "--handshake-timeout", "120"])
        let pid = daemon.processID
        // After start-up, so the daemon's own raise to the hard limit does not undo it.
        let limit = try ToolProcess.run(path: "/usr/bin/prlimit", ["--pid", "\(pid)", "--nofile=128:128"])
        #expect(limit.status == 0, "prlimit failed: \(limit.standardError)")
        var clients: [SocketClient] = []
        var atLimit: Greeting?
        for _ in 0..<200 {
            let (client, greeting) = try SocketClient.greet(daemon.socket, timeout: 5)
            guard greeting == .welcomed else {
                atLimit = greeting
                break
            }
            clients.append(client)
        }
        // The first client past the limit was refused with a sentence or closed, not left hanging.
        switch atLimit {
        case let .refused(code, message)?:
            #expect(code == .limitExceeded && message.contains("out of file descriptors"))
        case .closed?: break
        default: Issue.record("the client past the limit got \(String(describing: atLimit)) after \(clients.count) clients")
        }
        let cpuBefore = try DaemonResources.cpuSeconds(of: pid)
        let started = ContinuousClock.now
        // More clients arrive at the limit meanwhile; each is answered promptly.
        for _ in 0..<3 {
            let asked = ContinuousClock.now
            let (_, greeting) = try SocketClient.greet(daemon.socket, timeout: 15)
            #expect(greeting != .noAnswer && greeting != .welcomed)
            #expect(ContinuousClock.now - asked < .seconds(10), "a refusal at the limit waited for something")
            Thread.sleep(forTimeInterval: 0.5)
        }
        Thread.sleep(until: Date(timeIntervalSinceNow: max(0, 3 - (ContinuousClock.now - started).seconds)))
        let cpu = try DaemonResources.cpuSeconds(of: pid) - cpuBefore
        let wall = (ContinuousClock.now - started).seconds
        print("descriptor limit: \(clients.count) clients served; daemon CPU \(cpu) s over \(wall) s at the limit")
        #expect(cpu < 0.3 * wall)
        #expect(daemon.logs("out of file descriptors"))
        // Clients leave; new ones are served again, and the episode's end is logged.
        clients.removeAll()
        #expect(pollUntil { (try? SocketClient.greet(daemon.socket, timeout: 5).1) == .welcomed })
        #expect(pollUntil { daemon.daemon?.standardError.contains("has file descriptors again") == true })
    }
}

/// Whether util-linux's prlimit, which sets another process's resource limits, is installed.
private let hasPrlimit = FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")

extension Duration {
    fileprivate var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// The connection limit follows the open-file limit streamd starts with: what 64 reserved descriptors
/// leave, at two a connection (its socket and its outbox's duplicate).
@Suite struct DescriptorLimitAtStartTests {
    @Test(.enabled(if: hasPrlimit, "needs /usr/bin/prlimit (util-linux)"))
    func underALowOpenFileLimitTheDefaultConnectionLimitLeavesRoomAndRefusesBeyondIt() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try ToolProcess(path: "/usr/bin/prlimit", [
            "--nofile=128:128", DaemonProcess.executable, "--socket", directory.socket, "--db", directory.database,
        ])
        #expect(pollUntil { FileManager.default.fileExists(atPath: directory.socket) })
        Thread.sleep(forTimeInterval: 0.3)
        var clients: [SocketClient] = []
        for _ in 0..<32 {
            let (client, greeting) = try SocketClient.greet(directory.socket, timeout: 5)
            #expect(greeting == .welcomed)
            clients.append(client)
        }
        let (_, greeting) = try SocketClient.greet(directory.socket, timeout: 5)
        #expect(greeting == .refused(.limitExceeded, "the server already serves 32 connections, its maximum; the connection is refused. Close connections you do not need, or retry later."))
        clients.removeAll()
        daemon.signal(SIGTERM)
        let result = daemon.finish(timeout: 15)
        #expect(result.standardError.contains("max-connections=32") && result.standardError.contains("open-files=128 (hard 128)"))
    }
}
