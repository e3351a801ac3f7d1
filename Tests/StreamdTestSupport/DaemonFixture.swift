import Foundation
import Synchronization

/// A `streamd` serving a fresh temporary directory, which a test can stop (as a crash with SIGKILL, or
/// gracefully with SIGTERM) and start again on the same socket and database.
///
/// Thread-safety: Sendable; the current process is under a mutex. Stopping waits for the process to
/// exit, which blocks the calling thread for the few milliseconds that takes.
public final class DaemonFixture: Sendable {
    /// The directory holding the socket and the database.
    public let directory: ShortTemporaryDirectory
    private let extra: [String]
    private let current: Mutex<DaemonProcess?>

    /// Starts a daemon on a new temporary directory, with `extra` flags, and waits until it listens.
    public init(extra: [String] = []) throws {
        directory = try ShortTemporaryDirectory()
        self.extra = extra
        current = Mutex(try DaemonProcess.serving(directory, extra: extra))
    }

    /// A fixture on `directory` whose daemon is not started yet (see `start()`), to prepare the database first.
    public init(notStartedIn directory: ShortTemporaryDirectory, extra: [String] = []) {
        self.directory = directory
        self.extra = extra
        current = Mutex(nil)
    }

    /// The daemon's socket.
    public var socket: String { directory.socket }
    /// The daemon's database.
    public var database: String { directory.database }
    /// The running daemon, if any.
    public var daemon: DaemonProcess? { current.withLock { $0 } }
    /// The running daemon's process id (0 when stopped).
    public var processID: Int32 { daemon?.process.processIdentifier ?? 0 }

    /// Starts a daemon on the same socket and database; throws if one is already running.
    public func start() throws {
        guard daemon == nil else { throw TestFailure("the daemon is already running") }
        let started = try DaemonProcess.serving(directory, extra: extra)
        current.withLock { $0 = started }
    }

    /// Stops the daemon with `signal` (SIGKILL, as a crash; SIGTERM, gracefully) and returns how it exited:
    /// the exit status, or the signal number that ended it.
    @discardableResult
    public func stop(with signal: Int32 = SIGKILL) -> Int32 {
        guard let running = current.withLock({ daemon in defer { daemon = nil }; return daemon }) else { return -1 }
        running.signal(signal)
        // The process's exit, not its pipes' end of file: DaemonProcess makes its pipes close-on-exec
        // only after creating them, so a process spawned in between by a parallel test may hold them
        // open for a while (DaemonProcess.waitForExit then waits up to 5 s more).
        return running.process.waitForExitStatus() ?? -1
    }

    /// Stops the daemon with `signal` and starts a new one on the same socket and database.
    public func restart(after signal: Int32 = SIGTERM) throws {
        stop(with: signal)
        try start()
    }

    deinit {
        if let running = current.withLock({ $0 }) {
            running.signal(SIGKILL)
            running.process.waitForExitStatus()
        }
    }
}
