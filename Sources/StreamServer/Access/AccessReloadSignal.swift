#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch

/// Reloads the access file whenever the process receives SIGHUP, until cancelled.
///
/// SIGHUP's default action (ending the process) is turned off for as long as the process lives, so a
/// reload request never stops the daemon, not even one that arrives after `cancel`.
/// Thread-safety: `@unchecked Sendable` because its only state is the dispatch source, which
/// Dispatch lets any thread cancel.
final class AccessReloadSignal: @unchecked Sendable {
    private let source: any DispatchSourceSignal

    /// Starts reloading `control` on SIGHUP, returning once a SIGHUP would be seen; `reloaded` runs
    /// after each reload that put new rules in force.
    init(_ control: AccessControl, reloaded: @escaping @Sendable () -> Void) {
        signal(SIGHUP, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "streamd.access-reload"))
        source.setEventHandler {
            if control.reload() != nil { reloaded() }
        }
        // The source is armed asynchronously; until then a SIGHUP would meet SIG_IGN and be lost, so
        // the daemon says it listens only once the source is registered.
        let registered = DispatchSemaphore(value: 0)
        source.setRegistrationHandler { registered.signal() }
        source.resume()
        _ = registered.wait(timeout: .now() + 5)
    }

    /// Stops reloading.
    func cancel() { source.cancel() }
}
