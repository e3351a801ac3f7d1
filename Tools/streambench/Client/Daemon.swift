import Foundation
import PostgresLog

/// A `streamd` process started for the benchmark on a socket and database of its own, stopped by
/// SIGTERM when the benchmark ends.
///
/// Thread-safety: not Sendable in spirit; the benchmark's main thread owns it.
final class Daemon {
    let socketPath: String
    let databasePath: String
    private let process = Process()

    /// Starts `executable` and returns once its socket accepts a handshake; it serves `database`, or
    /// else a file in `directory`, where its socket is.
    init(executable: String, directory: String, durability: String, database: PostgresAddress? = nil, extraArguments: [String] = []) throws {
        socketPath = directory + "/streamd.sock"
        databasePath = database?.url ?? directory + "/streamd.sqlite"
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--socket", socketPath, "--db", databasePath, "--durability", durability, "--log-level", "error"] + extraArguments
        try process.run()
        let deadline = Date(timeIntervalSinceNow: 20)
        while (try? BenchSocket(path: socketPath)) == nil {
            guard process.isRunning, Date() < deadline else { throw BenchFailure("streamd at \(executable) did not start serving \(socketPath)") }
            usleep(20_000)
        }
    }

    /// Resident memory now, and the peak so far, in MiB (from /proc).
    var memory: (resident: Double, peak: Double) {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Double {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Double($0) }
            return (kilobytes ?? 0) / 1024
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    /// Seconds of CPU the daemon has used so far, user and system (from /proc).
    var cpuSeconds: Double { cpuSecondsOfProcess(process.processIdentifier) }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    /// The `streamd` built beside this benchmark.
    static var besideThisProgram: String {
        let current = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent("streamd").path
    }
}

/// Seconds of CPU the process `pid` has used so far, all its threads, user and system (from /proc).
func cpuSecondsOfProcess(_ pid: Int32) -> Double {
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    // Fields after the command name, which is in parentheses and may hold spaces: utime and
    // stime are the 12th and 13th of them, in clock ticks.
    guard let close = stat.lastIndex(of: ")") else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}
