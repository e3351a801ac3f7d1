import Foundation
import StreamClient
import StreamdTestSupport
import Testing

/// Flow control reaches the task that consumes `events(in:)`.
@Suite struct AsyncConsumerFlowControlTests {
    static let eventCount = 16_000
    /// 4 KiB each: 64 MiB in all, against about 1 MiB of credit (256 events) in flight.
    static let payloadBytes = 4096

    @Test func aConsumerThatStopsTakingEventsHoldsOnlyItsCreditInMemory() async throws {
        let daemon = try DaemonFixture()
        let publisher = try await StreamConnection.connect(socketPath: daemon.socket)
        for first in stride(from: 0, to: Self.eventCount, by: 1000) {
            let batch = (first..<first + 1000).map { [UInt8](repeating: UInt8(truncatingIfNeeded: $0), count: Self.payloadBytes) }
            _ = try await publisher.append(contentsOf: batch, to: "big")
        }
        publisher.close()
        let child = try ChildProcess("stream-child", ["hold", daemon.socket, "big", "\(Self.eventCount)"])
        try child.waitForOutput(line: "holding")
        let pid = child.process.processIdentifier
        let holding = try residentKiB(of: pid)
        // Before the fix the whole stream, 64 MiB, piled up in the child within a second or two (it went
        // past 54 MiB from 29 MiB); with flow control the child holds its credit (1 MiB) and a frame or
        // two, and stays near 30 MiB. The bounds leave room for the allocator and stay far below the backlog.
        func tooBig(_ kib: Int) -> Bool { kib - holding > 16 * 1024 || kib > 56 * 1024 }
        let grew = await eventually(timeout: .seconds(2)) { tooBig((try? residentKiB(of: pid)) ?? 0) }
        let peak = try residentKiB(of: pid)
        #expect(!grew, "the consumer's process grew from \(holding) KiB to \(peak) KiB while it took nothing")
        child.send(line: "go on")
        #expect(try child.waitForExit() == 0, "\(child.standardError)")
        #expect(child.outputLines.last == "received \(Self.eventCount)")
    }
}
