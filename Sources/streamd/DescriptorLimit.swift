import Foundation

/// The process's limit on open files (RLIMIT_NOFILE).
///
/// Servers raise the soft limit to the hard one at start-up: the soft limit is often 1024 while the
/// hard one is far higher, and every client connection takes a descriptor. Values are Sendable.
struct DescriptorLimit: Sendable {
    /// The limit in force (the soft one).
    var soft: UInt64
    /// The most the soft limit may be raised to without privilege.
    var hard: UInt64

    /// The limits now, or nil if the kernel does not say.
    static func current() -> DescriptorLimit? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return DescriptorLimit(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one and returns the limits in force afterwards (unchanged
    /// if the kernel refuses).
    static func raiseSoftToHard() -> DescriptorLimit? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur != limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised)
        }
        return current()
    }
}
