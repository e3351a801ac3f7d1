#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import Synchronization

/// The daemon's current access rules, where they come from, and the audit log of what clients did.
///
/// Every request of every connection consults `rules`, so a reload (SIGHUP) applies at once to the
/// connections already open. A file that fails to load on reload leaves the rules as they were.
/// Thread-safety: Sendable; the rules sit behind a `Mutex` held only to copy or replace them.
public final class AccessControl: Sendable {
    /// The access file, or nil when none was given (only the owner and root may act).
    public let file: String?
    private let ownerUID: UInt32
    private let names: AccessNames
    private let current: Mutex<AccessRules>
    private let logger: Logger
    /// Refused requests are logged at most 20 a second, so a client repeating one cannot flood the log.
    private let refusalLimit = LogRateLimit()

    /// Loads `file` (when given) for a daemon running as `ownerUID`, logging audit lines to `logger`.
    ///
    /// - Throws: `AccessFileError` when the file cannot be read or is not a valid access file.
    public init(file: String?, ownerUID: UInt32 = UInt32(geteuid()), names: AccessNames = .system, logger: Logger) throws(AccessFileError) {
        self.file = file
        self.ownerUID = ownerUID
        self.names = names
        self.logger = logger
        let rules = try file.map { path throws(AccessFileError) in try AccessFile.load(path, ownerUID: ownerUID, names: names) }
        current = Mutex(rules ?? AccessRules(ownerUID: ownerUID))
    }

    /// The rules in force now.
    public var rules: AccessRules { current.withLock { $0 } }

    /// Loads the file again and, if it is valid, puts its rules in force; logs the outcome either way.
    ///
    /// - Returns: the number of rules now in force, or nil when the file was refused (the old ones stay).
    @discardableResult
    public func reload() -> Int? {
        guard let file else {
            logger.notice("SIGHUP: streamd has no access file to reload; only its own user and root may act (start it with --acl PATH to grant others)")
            return nil
        }
        do {
            let rules = try AccessFile.load(file, ownerUID: ownerUID, names: names)
            current.withLock { $0 = rules }
            logger.notice("reloaded the access file: it took \(Self.count(rules.rules.count))", metadata: ["acl": "\(file)", "rules": "\(rules.rules.count)"])
            return rules.rules.count
        } catch {
            let kept = current.withLock { $0.rules.count }
            logger.error("the access file was not reloaded, the rules in force before (\(Self.count(kept))) stay: \(error)", metadata: ["acl": "\(file)"])
            return nil
        }
    }

    /// The `permission_denied` message for `identity` refused `what` on `target`, e.g. "user alice
    /// (uid 1001) may not publish to stream orders; ask ...".
    func refusalMessage(_ identity: AccessIdentity, may what: String) -> String {
        let remedy = file.map { "ask the daemon's operator to grant it in the access file \($0)" }
            ?? "streamd has no access file, so only its own user and root may use it; ask its operator to grant it in one (streamd --acl PATH)"
        return "\(identity) may not \(what); \(remedy)."
    }

    /// Logs a refused request (warning), at most 20 a second; the next line logged counts those left out.
    func auditRefusal(_ identity: AccessIdentity, right: AccessRight, stream: String?, operation: String) {
        guard let leftOut = refusalLimit.admit() else { return }
        var metadata = Self.metadata(identity, operation: operation, stream: stream)
        metadata["right"] = "\(right)"
        if leftOut > 0 { metadata["refusals-not-logged"] = "\(leftOut)" }
        logger.warning("refused \(operation): permission denied", metadata: metadata)
    }

    /// Logs an administrative change that was made (notice).
    func auditChange(_ identity: AccessIdentity?, operation: String, stream: String?, detail: String? = nil) {
        var metadata: Logger.Metadata = identity.map { Self.metadata($0, operation: operation, stream: stream) } ?? ["operation": "\(operation)"]
        if identity == nil, let stream { metadata["stream"] = "\(stream)" }
        if let detail { metadata["detail"] = "\(detail)" }
        logger.notice("admin: \(operation)\(stream.map { " \($0)" } ?? "")", metadata: metadata)
    }

    /// `1 rule`, `3 rules`.
    private static func count(_ rules: Int) -> String { rules == 1 ? "1 rule" : "\(rules) rules" }

    private static func metadata(_ identity: AccessIdentity, operation: String, stream: String?) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "uid": .stringConvertible(identity.uid), "user": "\(identity.userName ?? AccessIdentity.userName(of: identity.uid) ?? "?")",
            "pid": .stringConvertible(identity.pid), "operation": "\(operation)",
        ]
        if let stream { metadata["stream"] = "\(stream)" }
        return metadata
    }
}
