import Foundation

extension Process {
    /// Waits until the process has ended and returns its exit status (or the signal that ended it), as
    /// `terminationStatus` gives them; nil if it is gone while Foundation still calls it running.
    ///
    /// Used instead of `waitUntilExit`, which on Linux can wait forever when Foundation misses a child's
    /// end: it learns of it through a socket the child inherits, which the child's own children, or a
    /// process spawned meanwhile by a parallel test, may inherit too (swift-corelibs-foundation #4795).
    /// One CI run hung so for 20 minutes in `DaemonFixture.stop` after the daemon had exited. Here an
    /// ended child's status is read with `waitid(WNOWAIT)`, which leaves it for Foundation to reap, and
    /// the wait ends a few seconds after the child did.
    @discardableResult
    public func waitForExitStatus(grace: TimeInterval = 5) -> Int32? {
        // Once the child has ended, Foundation gets `grace` seconds to say so (and to fill in
        // `terminationReason`); only if it does not is the status read here taken.
        var ended: (since: Date, status: Int32?)?
        while isRunning {
            if let ended, Date().timeIntervalSince(ended.since) > grace { return ended.status }
            if ended == nil {
                var info = siginfo_t()
                if waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT | WNOHANG) == 0 {
                    if info._sifields._sigchld.si_pid == processIdentifier { ended = (Date(), info._sifields._sigchld.si_status) }
                } else if errno == ECHILD {
                    ended = (Date(), nil)  // reaped by Foundation, which is about to say so
                }
            }
            usleep(2_000)
        }
        return terminationStatus
    }
}
