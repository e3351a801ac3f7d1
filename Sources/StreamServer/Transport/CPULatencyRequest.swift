import EventLog
import Foundation
import Synchronization

/// Keeps idle cores polling instead of halted while requests keep coming, through the kernel's CPU
/// latency request (the PM QoS file `/dev/cpu_dma_latency`).
///
/// For `window` after each request, and at most twice that, the process asks for a wake-up latency
/// of zero. The kernel's idle loop then polls instead of halting the core. A thread woken on a
/// polling core runs at once, and the waker needs no interrupt between cores to reach it: on a
/// two-core VM a `PING` round trip took 16 µs instead of 20-46 µs with `IdleSpinner`s. Then the
/// request is withdrawn, and idle cores halt again.
///
/// Only root may open the file (unless a udev rule grants it), so `init` fails for other users.
/// The kernel drops the request when the file closes, so a daemon that crashes leaves nothing behind.
/// Thread-safety: Sendable; `noteActivity()` and `stop()` may be called from any thread.
final class CPULatencyRequest: WakeLatencyKeeper {
    /// The kernel's CPU latency request file.
    static let defaultDevicePath = "/dev/cpu_dma_latency"
    /// The latency, in microseconds, that asks for nothing: the kernel's default for a request
    /// (`PM_QOS_CPU_LATENCY_DEFAULT_VALUE`).
    static let noConstraint: Int32 = 2_000_000_000

    /// How long the request is held after the last request noted, at the least.
    let window: Duration
    private let activity = ActivitySignal()
    private let descriptor: Int32
    private let holding = Atomic<Bool>(false)
    private let holdsMade = Atomic<Int>(0)
    private let ended = Atomic<Bool>(false)
    /// Signalled by `stop()`, so that the thread need not sleep out its window.
    private let stopping = DispatchSemaphore(value: 0)

    /// Opens `devicePath` and starts the thread that holds the request while requests come; nil when
    /// the file cannot be opened or written (not root, or no such file).
    init?(window: Duration, devicePath: String = CPULatencyRequest.defaultDevicePath) {
        descriptor = open(devicePath, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard Self.ask(Self.noConstraint, on: descriptor) else {
            close(descriptor)
            return nil
        }
        self.window = window
        // Taken before `init` returns, so that no request noted after it counts as seen.
        let seen = activity.current
        Thread.detachNewThread { [self] in run(after: seen) }
    }

    /// Records a request: the latency request is held until `window` has passed without another.
    func noteActivity() {
        activity.note()
    }

    /// Tells the thread to withdraw the request and end, without waiting for it. Later calls do nothing.
    func stop() {
        if activity.stop() { stopping.signal() }
    }

    /// Whether zero latency is asked for now.
    var isHolding: Bool { holding.load(ordering: .sequentiallyConsistent) }

    /// How many times zero latency has been asked for.
    var holdCount: Int { holdsMade.load(ordering: .sequentiallyConsistent) }

    /// Whether the thread sleeps, the request withdrawn, having seen every request noted so far.
    var sleepsUpToDate: Bool { activity.sleepsUpToDate }

    /// Whether the thread has ended after `stop()` and closed the file.
    var hasEnded: Bool { ended.load(ordering: .sequentiallyConsistent) }

    private func run(after start: UInt64) {
        nameCurrentThread("cpu-latency")
        defer {
            close(descriptor)
            ended.store(true, ordering: .sequentiallyConsistent)
        }
        var seen = start
        while activity.sleep(after: seen) {
            holding.store(true, ordering: .sequentiallyConsistent)
            holdsMade.add(1, ordering: .sequentiallyConsistent)
            Self.ask(0, on: descriptor)
            seen = holdWhileRequestsCome(from: activity.current)
            Self.ask(Self.noConstraint, on: descriptor)
            holding.store(false, ordering: .sequentiallyConsistent)
        }
    }

    /// Sleeps `window` at a time until one passes without a request, or `stop()`; returns the
    /// count last seen.
    private func holdWhileRequestsCome(from start: UInt64) -> UInt64 {
        let nanoseconds = window.components.seconds * 1_000_000_000 + window.components.attoseconds / 1_000_000_000
        var seen = start
        while stopping.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .timedOut {
            let latest = activity.current
            if latest == seen { break }
            seen = latest
        }
        return seen
    }

    /// Writes `latency` (microseconds, as the kernel's binary `s32`) as this process's request;
    /// false when the kernel refused it.
    @discardableResult
    private static func ask(_ latency: Int32, on descriptor: Int32) -> Bool {
        withUnsafeBytes(of: latency) { write(descriptor, $0.baseAddress, $0.count) } == MemoryLayout<Int32>.size
    }
}
