import Foundation

/// A `streamd` process started for the benchmark on a socket and database of its own, stopped by
/// SIGTERM when the benchmark ends.
///
/// Thread-safety: not Sendable in spirit; the benchmark's main thread owns it.
final class Daemon {
    let socketPath: String
    let databasePath: String
    private let process = Process()

    /// Starts `executable` and returns once its socket accepts a handshake.
    init(executable: String, directory: String, durability: String) throws {
        socketPath = directory + "/streamd.sock"
        databasePath = directory + "/streamd.sqlite"
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--socket", socketPath, "--db", databasePath, "--durability", durability, "--log-level", "error"]
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
