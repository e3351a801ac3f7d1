import Foundation
import NIOCore
import NIOEmbedded
import StreamdTestSupport
import Testing

@testable import StreamServer

@Suite("Wake latency keepers")
struct WakeLatencyKeeperTests {
    @Test func theDefaultsAskForNothingAndEachOptionForItsOwnKind() throws {
        #expect(try wakeLatencyKeepers(idleSpin: .zero, cpuLatencyRequest: .zero).isEmpty)
        let spinners = try wakeLatencyKeepers(idleSpin: .milliseconds(1), cpuLatencyRequest: .zero)
        defer { for keeper in spinners { keeper.stop() } }
        #expect(spinners.count == min(System.coreCount, 4))
        #expect(spinners.allSatisfy { $0 is IdleSpinner })
        if access(CPULatencyRequest.defaultDevicePath, W_OK) == 0 {
            let request = try wakeLatencyKeepers(idleSpin: .zero, cpuLatencyRequest: .milliseconds(1))
            defer { for keeper in request { keeper.stop() } }
            #expect(request.count == 1)
            #expect(request.first is CPULatencyRequest)
        } else {
            #expect(throws: StreamServerError.self) { try wakeLatencyKeepers(idleSpin: .zero, cpuLatencyRequest: .milliseconds(1)) }
        }
    }

    @Test func theHandlerNotesEachReadAndPassesItOn() throws {
        let spinners = [IdleSpinner(window: .milliseconds(1)), IdleSpinner(window: .milliseconds(1))]
        defer { for spinner in spinners { spinner.stop() } }
        let channel = EmbeddedChannel(handler: WakeLatencyHandler(spinners))
        for round in 0..<3 {
            for spinner in spinners { #expect(pollUntil { spinner.sleepsUpToDate }) }
            let bytes = ByteBuffer(bytes: [UInt8(round)])
            try channel.writeInbound(bytes)
            #expect(try channel.readInbound(as: ByteBuffer.self) == bytes)
            for spinner in spinners {
                #expect(pollUntil { spinner.spinCount == round + 1 }, "after the read of round \(round)")
            }
        }
        _ = try channel.finish()
    }
}
