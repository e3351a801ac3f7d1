import Foundation
import Synchronization

/// A `streamd` shared by the tests of a suite, started on first use and stopped (SIGTERM, then its
/// directory removed) when the test process exits, since a static value is never deinitialized.
///
/// Share it only among tests that do not depend on each other: give each test its own stream names.
/// Thread-safety: Sendable; `start` may be called from any thread.
public final class SharedDaemon: Sendable {
    /// The directory of the socket and database.
    public let directory: ShortTemporaryDirectory
    /// The running daemon.
    public let daemon: DaemonProcess

    /// The daemon's socket.
    public var socket: String { directory.socket }

    private init() throws {
        directory = try ShortTemporaryDirectory()
        daemon = try DaemonProcess.serving(directory)
        Self.atExit.withLock { entries in
            if entries.isEmpty { atexit { SharedDaemon.stopAll() } }
            entries.append((daemon.process.processIdentifier, directory.path))
        }
    }

    /// A new shared daemon; keep it in a `static let` of the suite.
    public static func start() -> Result<SharedDaemon, any Error> {
        Result { try SharedDaemon() }
    }

    private static let atExit = Mutex<[(pid: pid_t, directory: String)]>([])

    private static func stopAll() {
        let entries = atExit.withLock { $0 }
        for entry in entries { kill(entry.pid, SIGTERM) }
        for entry in entries {
            var status: Int32 = 0
            waitpid(entry.pid, &status, 0)
            try? FileManager.default.removeItem(atPath: entry.directory)
        }
    }
}

