import Foundation
import NIOCore

/// Keeps the wake-up of a thread short while requests keep coming: told of each request read and
/// each reply written, it keeps the cores ready for a window after the last, then lets them rest.
///
/// Waking a thread on a sleeping core costs tens of microseconds (on a two-core VM, half of a
/// `PING` round trip), once when a request wakes the event loop and once when its reply wakes
/// the client.
/// Thread-safety: implementations are Sendable; both methods may be called from any thread.
protocol WakeLatencyKeeper: Sendable {
    /// Records a request or reply: the cores stay ready until the window passes without another.
    func noteActivity()
    /// Ends the keeping for good, without waiting for its thread.
    func stop()
}

/// The keepers a daemon's configuration asks for: a `CPULatencyRequest` held for
/// `cpuLatencyRequest` after each request, and one `IdleSpinner` per core (at most four, as clients
/// and the event loops wake on few cores at a time, and each spinner costs power) spinning for
/// `idleSpin`; a zero window asks for none of its kind, so the defaults ask for nothing.
///
/// - Throws: `StreamServerError` when a latency request is asked for and the process may not make one.
func wakeLatencyKeepers(idleSpin: Duration, cpuLatencyRequest: Duration) throws -> [any WakeLatencyKeeper] {
    var keepers: [any WakeLatencyKeeper] = []
    if cpuLatencyRequest > .zero {
        guard let request = CPULatencyRequest(window: cpuLatencyRequest) else {
            throw StreamServerError(.system, """
                --cpu-latency-request needs to write \(CPULatencyRequest.defaultDevicePath) (\(String(cString: strerror(errno)))); \
                run streamd as root or grant its user that file (a udev rule), or drop the option.
                """)
        }
        keepers.append(request)
    }
    if idleSpin > .zero {
        keepers += (0..<min(System.coreCount, 4)).map { _ in IdleSpinner(window: idleSpin) as any WakeLatencyKeeper }
    }
    return keepers
}
