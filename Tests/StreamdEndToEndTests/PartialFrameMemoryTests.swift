import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

/// Half-sent frames cannot make the daemon hold memory without limit (issue 14, defect 5: 40
/// connections each sending the header of a 16 MiB frame and part of its body took it to 732 MiB).
@Suite struct PartialFrameMemoryTests {
    @Test func fortyHalfSentLargeFramesKeepTheDaemonUnder256MiBAndOthersAreStillServed() throws {
        let daemon = try DaemonFixture()
        let pid = daemon.processID
        let before = try DaemonResources.residentBytes(of: pid)
        let length = 16 * 1024 * 1024
        let header: [UInt8] = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
            PublishBody.messageType, 0, 0, 0, 0, 2]
        let part = [UInt8](repeating: 0x41, count: 8 * 1024 * 1024)
        var stalled: [SocketClient] = []
        var cutOff = 0
        for _ in 0..<40 {
            let client = try SocketClient.connected(to: daemon.socket)
            do {
                try client.write(header + part)
            } catch {
                // The daemon closed the connection while the frame was coming: refused.
                cutOff += 1
            }
            stalled.append(client)
        }
        Thread.sleep(forTimeInterval: 0.5)
        let during = try DaemonResources.residentBytes(of: pid)
        var refused = 0
        for client in stalled where client.hasInput(within: 100) {
            if case let .error(code, message)? = try? client.next()?.message, code == .limitExceeded,
                message.contains("unfinished frame")
            {
                refused += 1
            }
        }
        // A client sending small frames is still served while the stalled ones wait.
        let good = try SocketClient.connected(to: daemon.socket)
        #expect(try good.publish([UInt8](repeating: 1, count: 1000), to: "fine") == 1)
        print("partial frames: RSS \(before >> 20) MiB before, \(during >> 20) MiB with 40 half-sent 16 MiB frames; \(refused) refused (\(cutOff) cut off while writing)")
        #expect(during < 256 * 1024 * 1024)
        #expect(refused >= 20)
        #expect(daemon.logs("refused a connection"))
    }
}
