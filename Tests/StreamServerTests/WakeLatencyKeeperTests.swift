import Foundation
import NIOCore
import NIOEmbedded
import StreamdTestSupport
import Testing

@testable import StreamServer

@Suite("Wake latency keepers")
struct WakeLatencyKeeperTests {
    @Test func aDaemonMakesACPULatencyRequestWhereItMayElseSpinsOneThreadPerCore() throws {
        #expect(wakeLatencyKeepers(window: .zero).isEmpty)
        let keepers = wakeLatencyKeepers(window: .milliseconds(1))
        defer { for keeper in keepers { keeper.stop() } }
        if access(CPULatencyRequest.defaultDevicePath, W_OK) == 0 {
            #expect(keepers.count == 1)
            #expect(keepers.first is CPULatencyRequest)
        } else {
            #expect(keepers.count == min(System.coreCount, 4))
            #expect(keepers.allSatisfy { $0 is IdleSpinner })
        }
    }

    @Test func theHandlerNotesEachReadAndEachReplyAndPassesThemOn() throws {
        let spinners = [IdleSpinner(window: .milliseconds(1)), IdleSpinner(window: .milliseconds(1))]
        defer { for spinner in spinners { spinner.stop() } }
        let channel = EmbeddedChannel(handler: WakeLatencyHandler(spinners))
        for (round, direction) in ["read", "write", "read"].enumerated() {
            for spinner in spinners { #expect(pollUntil { spinner.sleepsUpToDate }) }
            let bytes = ByteBuffer(bytes: [UInt8(round)])
            if direction == "read" {
                try channel.writeInbound(bytes)
                #expect(try channel.readInbound(as: ByteBuffer.self) == bytes)
            } else {
                try channel.writeOutbound(bytes)
                #expect(try channel.readOutbound(as: ByteBuffer.self) == bytes)
            }
            for spinner in spinners {
                #expect(pollUntil { spinner.spinCount == round + 1 }, "after the \(direction) of round \(round)")
            }
        }
        _ = try channel.finish()
    }
}
