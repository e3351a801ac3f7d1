import Foundation
import Synchronization

/// A system user made for one test (`useradd --system`, no home, no login shell) and deleted by
/// `remove()` or at deinit, so tests can run real processes as a second local user.
///
/// Only root can make one: `isAvailable` says whether this process can, and `unavailableReason` why
/// not, for a Swift Testing `.enabled(if:)` condition.
/// Thread-safety: `@unchecked Sendable` because its stored properties are constants set at init; the
/// removal is idempotent (`userdel` of a removed user only fails).
public final class ThrowawayUser: @unchecked Sendable {
    /// The user's login name (`sdt<pid><counter>`, unique per process and short enough for `useradd`).
    public let name: String
    /// The user's id.
    public let uid: UInt32
    /// The user's primary group id.
    public let gid: UInt32

    /// Whether this process can make throw-away users (root, with `useradd`, `userdel` and `runuser`).
    public static var isAvailable: Bool { unavailableReason == nil }

    /// Why throw-away users cannot be made here, or nil when they can.
    public static var unavailableReason: String? {
        if geteuid() != 0 { return "needs root to create a throw-away system user" }
        for tool in ["/usr/sbin/useradd", "/usr/sbin/userdel", "/usr/sbin/groupadd", "/usr/sbin/runuser"] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "needs \(tool)"
        }
        return nil
    }

    private static let counter = Mutex(0)

    /// Creates a new system user, a supplementary member of `groups` (names).
    public init(groups: [String] = []) throws {
        let serial = Self.counter.withLock { value -> Int in
            value += 1
            return value
        }
        name = "sdt\(getpid() % 100_000)x\(serial)"
        var arguments = ["--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", "--user-group"]
        if !groups.isEmpty { arguments += ["--groups", groups.joined(separator: ",")] }
        try Self.administer("/usr/sbin/useradd", arguments + [name])
        guard let entry = getpwnam(name) else { throw TestFailure("useradd made \(name) but getpwnam does not find it") }
        uid = entry.pointee.pw_uid
        gid = entry.pointee.pw_gid
    }

    /// Runs a tool that changes the user database (useradd, groupadd, ...); while another test holds
    /// the database's lock (the tool says "cannot lock"), tries again for up to ten seconds.
    static func administer(_ path: String, _ arguments: [String]) throws {
        let deadline = Date(timeIntervalSinceNow: 10)
        while true {
            let result = try ToolProcess.run(path: path, arguments)
            if result.status == 0 { return }
            guard result.standardError.contains("lock"), Date() < deadline else {
                throw TestFailure("\(path) \(arguments.joined(separator: " ")) failed: \(result)")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// Runs `executable` with `arguments` as this user (through `runuser`) to its end.
    public func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = patience.timeInterval) throws -> CommandResult {
        try ToolProcess.run(path: "/usr/sbin/runuser", ["-u", name, "--", executable] + arguments, environment: environment, timeout: timeout)
    }

    /// Starts `executable` with `arguments` as this user (through `runuser`) and returns it running.
    public func start(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ToolProcess {
        try ToolProcess(path: "/usr/sbin/runuser", ["-u", name, "--", executable] + arguments, environment: environment)
    }

    /// Gives `path` to this user (`chown`, not following a symlink at `path`).
    public func own(_ path: String) throws {
        guard lchown(path, uid, gid) == 0 else { throw TestFailure("chown \(path) to \(name) failed: \(String(cString: strerror(errno)))") }
    }

    /// Deletes the user (and its group).
    public func remove() {
        try? Self.administer("/usr/sbin/userdel", [name])
    }

    deinit { remove() }
}

/// A system group made for one test (`groupadd --system`) and deleted at deinit; make its members
/// with `ThrowawayUser(groups: [group.name])`. Only root can make one (see `ThrowawayUser.isAvailable`).
///
/// Thread-safety: Sendable; its name is a constant.
public final class ThrowawayGroup: Sendable {
    /// The group's name (`sdg` and a random suffix).
    public let name: String

    /// Creates a new system group.
    public init() throws {
        name = "sdg\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
        try ThrowawayUser.administer("/usr/sbin/groupadd", ["--system", name])
    }

    deinit { try? ThrowawayUser.administer("/usr/sbin/groupdel", [name]) }
}
