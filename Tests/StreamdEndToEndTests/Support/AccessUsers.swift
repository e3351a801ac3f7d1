import Foundation
import StreamdTestSupport

/// Throw-away system users and a group for access tests, made with useradd/groupadd and removed with
/// userdel/groupdel when the value goes away. Only root can make them (see `isAvailable`).
///
/// Names are unique per instance (`sda` + random suffix, at most 32 bytes), so runs never collide
/// with each other or with real accounts.
/// Thread-safety: Sendable; every property is immutable after `init`.
final class AccessUsers: Sendable {
    /// One throw-away user.
    struct User: Sendable {
        let name: String
        let uid: UInt32
    }

    /// The users, in the order asked for.
    let users: [User]
    /// The throw-away group, of which the users named in `init`'s `inGroup` are supplementary members.
    let group: String

    /// Whether this process may create users: root, with useradd and runuser installed.
    static var isAvailable: Bool {
        geteuid() == 0 && ["/usr/sbin/useradd", "/usr/sbin/groupadd", "/usr/sbin/runuser"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Makes a group and `count` users; the users whose index is in `inGroup` get the group as a
    /// supplementary group (their primary group is their own).
    init(count: Int, inGroup: Set<Int> = []) throws {
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        group = "sdg\(tag)"
        try Self.run("/usr/sbin/groupadd", ["--system", group])
        var made: [User] = []
        do {
            for index in 0..<count {
                let name = "sd\(index)\(tag)"
                var arguments = ["--system", "--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", "--home-dir", "/nonexistent"]
                if inGroup.contains(index) { arguments += ["--groups", group] }
                try Self.run("/usr/sbin/useradd", arguments + [name])
                guard let uid = UInt32(try Self.run("/usr/bin/id", ["-u", name]).trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    throw TestFailure("no uid for the user \(name)")
                }
                made.append(User(name: name, uid: uid))
            }
        } catch {
            Self.remove(made.map(\.name), group: group)
            throw error
        }
        users = made
    }

    deinit { Self.remove(users.map(\.name), group: group) }

    /// Runs the package's `streamctl` as `user` (through runuser) with `arguments`.
    func streamctl(as user: User, _ arguments: [String]) throws -> CommandResult {
        try ToolProcess.run(path: "/usr/sbin/runuser", ["-u", user.name, "--", DaemonProcess.builtExecutable(named: "streamctl")] + arguments)
    }

    private static func remove(_ users: [String], group: String) {
        for user in users { _ = try? run("/usr/sbin/userdel", [user]) }
        _ = try? run("/usr/sbin/groupdel", [group])
    }

    /// Runs a system tool; while another test holds the user database's lock (useradd and friends
    /// say "cannot lock"), tries again for up to ten seconds.
    @discardableResult
    private static func run(_ path: String, _ arguments: [String]) throws -> String {
        let deadline = Date(timeIntervalSinceNow: 10)
        while true {
            let result = try ToolProcess.run(path: path, arguments)
            if result.status == 0 { return result.standardOutput }
            guard result.standardError.contains("lock"), Date() < deadline else {
                throw TestFailure("\(path) \(arguments.joined(separator: " ")) failed: \(result)")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }
}
