import Foundation
import StreamdTestSupport
import Testing

@testable import StreamServer

/// A regular file stands in for the kernel's request file where a test reads back every value
/// written; the kernel's own file is used where the test asks what the kernel made of it.
@Suite("CPU latency request")
struct CPULatencyRequestTests {
    @Test func itAsksForZeroLatencyWhileRequestsComeThenWithdrawsTheRequest() throws {
        let directory = try ShortTemporaryDirectory()
        let file = try requestFile(in: directory)
        // A window far above the 2 ms between requests, so that a loaded machine's pause does not let it run out.
        let request = try #require(CPULatencyRequest(window: .seconds(2), devicePath: file))
        defer { request.stop() }
        #expect(try values(in: file) == [CPULatencyRequest.noConstraint], "a fresh request asks for nothing")

        // A request every 2 ms for 5 s (longer than two windows) keeps one hold going; 2-4 s after the
        // last, it is withdrawn.
        let until = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < until {
            request.noteActivity()
            #expect(pollUntil { request.isHolding })
            usleep(2_000)
        }
        #expect(pollUntil { request.sleepsUpToDate })
        #expect(!request.isHolding)
        #expect(request.holdCount == 1)
        #expect(try values(in: file) == [CPULatencyRequest.noConstraint, 0, CPULatencyRequest.noConstraint])

        request.noteActivity()
        #expect(pollUntil { request.holdCount == 2 && request.sleepsUpToDate })
        #expect(try values(in: file).suffix(2) == [0, CPULatencyRequest.noConstraint])
    }

    @Test(.enabled(if: access(CPULatencyRequest.defaultDevicePath, W_OK) == 0, "only root may make a CPU latency request"))
    func theKernelHoldsTheIdleCoresToZeroLatencyUntilTheRequestEnds() throws {
        let request = try #require(CPULatencyRequest(window: .seconds(30)))
        request.noteActivity()
        #expect(pollUntil { request.isHolding })
        let device = try #require(FileHandle(forReadingAtPath: CPULatencyRequest.defaultDevicePath))
        defer { try? device.close() }
        let bytes = try #require(try device.read(upToCount: 4))
        #expect(bytes.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) } == 0, "the kernel's latency target while held")
        request.stop()
        #expect(pollUntil { request.hasEnded })
    }

    @Test func itCannotBeMadeWithoutAWritableRequestFile() throws {
        let directory = try ShortTemporaryDirectory()
        #expect(CPULatencyRequest(window: .milliseconds(1), devicePath: "\(directory.path)/missing") == nil)
        #expect(CPULatencyRequest(window: .milliseconds(1), devicePath: directory.path) == nil)
    }

    @Test func stopWithdrawsAHeldRequestAtOnceAndClosesTheFile() throws {
        let directory = try ShortTemporaryDirectory()
        let file = try requestFile(in: directory)
        let request = try #require(CPULatencyRequest(window: .seconds(30), devicePath: file))
        request.noteActivity()
        #expect(pollUntil { request.isHolding })
        let start = ContinuousClock.now
        request.stop()
        #expect(pollUntil { request.hasEnded })
        #expect(ContinuousClock.now - start < .seconds(5), "it slept out its 30 s window")
        #expect(try values(in: file).last == CPULatencyRequest.noConstraint)
        request.stop()
        request.noteActivity()
    }

    /// A request noted just as the hold is withdrawn must start the next: each round notes two
    /// requests a random few microseconds apart, so that the second lands in every phase of the
    /// thread's checking, withdrawing and falling asleep; the thread must then sleep having seen both.
    @Test func noRequestIsMissedWhileTheHoldIsWithdrawn() throws {
        let directory = try ShortTemporaryDirectory()
        let request = try #require(CPULatencyRequest(window: .microseconds(20), devicePath: try requestFile(in: directory)))
        defer { request.stop() }
        expectNoRequestMissed(by: request, rounds: 3_000, maximumGap: .microseconds(100)) { request.sleepsUpToDate }
    }

    @Test func manyThreadsNoteRequestsWhileItHoldsWithdrawsAndStops() throws {
        let directory = try ShortTemporaryDirectory()
        let file = try requestFile(in: directory)
        let request = try #require(CPULatencyRequest(window: .microseconds(50), devicePath: file))
        try noteFromManyThreadsThenStop(request, maximumPause: 300) { request.hasEnded }

        // Each hold is asked for once and withdrawn once, and the last word withdraws it.
        let written = try values(in: file)
        let expected = [CPULatencyRequest.noConstraint] + Array(repeating: [0, CPULatencyRequest.noConstraint], count: request.holdCount).joined()
        #expect(request.holdCount > 0)
        #expect(written == expected)
    }

    private func requestFile(in directory: ShortTemporaryDirectory) throws -> String {
        let path = "\(directory.path)/cpu_dma_latency"
        try #require(FileManager.default.createFile(atPath: path, contents: nil))
        return path
    }

    /// The latencies written to `file`, in order, as the kernel reads them: native `Int32`s.
    private func values(in file: String) throws -> [Int32] {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        return stride(from: 0, to: data.count, by: 4).map { offset in
            data[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
        }
    }
}
