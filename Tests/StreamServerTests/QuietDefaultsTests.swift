import Foundation
import StreamdTestSupport
import Testing

/// A daemon started with the defaults is quiet: light traffic costs it little CPU, because nothing
/// spins or polls while it waits for the next request.
@Suite struct QuietDefaultsTests {
    /// Seconds of CPU `process` has used so far, user and system.
    private static func cpuSeconds(of process: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8)
        let fields = stat[stat.range(of: ") ", options: .backwards)!.upperBound...].split(separator: " ")
        return (Double(fields[11])! + Double(fields[12])!) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The trickle, shortened: ~475 publishes a second, each waiting for its acknowledgement.
    /// The release figure is measured by `streambench --only trickle`; a debug build costs more per
    /// publish, and more again while a full test run loads both cores (up to 29% was seen), so this
    /// holds it to half a core: what it guards against is spinning, which took 99%.
    @Test func aTrickleOfPublishesCostsTheDefaultDaemonLittleCPU() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory)
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.waitForExit()
        }
        let client = try SocketClient.connected(to: directory.socket)
        _ = try client.publish([1], to: "trickle")
        let process = daemon.process.processIdentifier
        let rate = 475, seconds = 3
        let cpuBefore = try Self.cpuSeconds(of: process), start = ContinuousClock.now
        for index in 0..<(rate * seconds) {
            let due = start + .microseconds(index * 1_000_000 / rate)
            if due > .now { Thread.sleep(forTimeInterval: Double((due - .now).components.attoseconds) / 1e18) }
            _ = try client.publish([UInt8(truncatingIfNeeded: index)], to: "trickle")
        }
        let elapsed = ContinuousClock.now - start
        let cores = (try Self.cpuSeconds(of: process) - cpuBefore) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        #expect(cores < 0.5, "the daemon used \(cores) cores for a trickle of \(rate) publishes a second")
    }
}
