import NIOCore

/// Keeps the wake-up of a thread short while requests keep coming: told of each request read and
/// each reply written, it keeps the cores ready for a window after the last, then lets them rest.
///
/// Waking a thread on a sleeping core costs tens of microseconds (on a two-core VM, half of a
/// `PING` round trip), once when a request wakes the event loop and once when its reply wakes
/// the client.
/// Thread-safety: implementations are Sendable; both methods may be called from any thread.
protocol WakeLatencyKeeper: Sendable {
    /// How the cores are kept ready, for the startup log.
    var method: String { get }
    /// Records a request or reply: the cores stay ready until the window passes without another.
    func noteActivity()
    /// Ends the keeping for good, without waiting for its thread.
    func stop()
}

/// The keepers of a daemon whose cores stay ready for `window` after each request: one
/// `CPULatencyRequest` where the process may make one, else one `IdleSpinner` per core (at most four,
/// as clients and the event loops wake on few cores at a time, and each spinner costs power);
/// none for a zero window.
func wakeLatencyKeepers(window: Duration) -> [any WakeLatencyKeeper] {
    guard window > .zero else { return [] }
    if let request = CPULatencyRequest(window: window) { return [request] }
    return (0..<min(System.coreCount, 4)).map { _ in IdleSpinner(window: window) }
}
