import Foundation
import StreamProtocol
import StreamdTestSupport

/// What a daemon process holds, read from /proc: its resident memory and the CPU time it used.
enum DaemonResources {
    /// The process's resident set size in bytes (VmRSS of /proc/PID/status).
    static func residentBytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else { throw TestFailure("no VmRSS in /proc/\(pid)/status") }
        return kilobytes * 1024
    }

    /// The CPU time the process used so far (utime + stime of /proc/PID/stat), in seconds.
    static func cpuSeconds(of pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name, which is in parentheses and may hold spaces.
        guard let close = stat.lastIndex(of: ")") else { throw TestFailure("unreadable /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3); utime and stime are fields 14 and 15.
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw TestFailure("unreadable /proc/\(pid)/stat")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The number of descriptors the process has open.
    static func openDescriptors(of pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }
}

/// How the daemon answered a connection's HELLO.
enum Greeting: Equatable {
    case welcomed
    case refused(ErrorCode, String)
    case closed
    case noAnswer
}

extension SocketClient {
    /// Connects, says HELLO, and reports the answer (a read giving up after `timeout` seconds is `noAnswer`).
    static func greet(_ path: String, timeout: Int = 10) throws -> (SocketClient, Greeting) {
        let client = try SocketClient(path: path, timeout: timeout)
        try? client.write(try ClientMessage.hello(minVersion: 1, maxVersion: 1, clientName: "limits").encoded(requestID: 0))
        do {
            switch try client.next()?.message {
            case .welcome: return (client, .welcomed)
            case let .error(code, message): return (client, .refused(code, message))
            case nil: return (client, .closed)
            case let other?: throw TestFailure("unexpected answer to HELLO: \(other)")
            }
        } catch let failure as TestFailure where failure.description.contains("read failed") {
            // A read timed out (EAGAIN) or the daemon reset the connection.
            return (client, failure.description.contains("reset") ? .closed : .noAnswer)
        }
    }

    /// Whether the daemon sent something (or closed) within `milliseconds`.
    func hasInput(within milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }
}

extension DaemonFixture {
    /// Whether the running daemon's standard error shows `text` within `timeout` seconds.
    func logs(_ text: String, within timeout: TimeInterval = patience.timeInterval) -> Bool {
        guard let daemon else { return false }
        do {
            try daemon.waitForError(containing: text, timeout: timeout)
            return true
        } catch {
            return false
        }
    }
}
