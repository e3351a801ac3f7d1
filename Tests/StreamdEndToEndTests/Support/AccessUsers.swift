import Foundation
import StreamdTestSupport

/// Throw-away system users and a group for the access tests, removed when the value goes away
/// (users first, then the group). Only root can make them (see `ThrowawayUser.isAvailable`).
///
/// Thread-safety: Sendable; every property is immutable after `init`.
final class AccessUsers: Sendable {
    /// The users, in the order asked for.
    let users: [ThrowawayUser]
    /// The throw-away group's name, of which the users named in `init`'s `inGroup` are supplementary members.
    var group: String { throwawayGroup.name }
    private let throwawayGroup: ThrowawayGroup

    /// Makes a group and `count` users; the users whose index is in `inGroup` get the group as a
    /// supplementary group (their primary group is their own).
    init(count: Int, inGroup: Set<Int> = []) throws {
        throwawayGroup = try ThrowawayGroup()
        users = try (0..<count).map { [throwawayGroup] index in
            try ThrowawayUser(groups: inGroup.contains(index) ? [throwawayGroup.name] : [])
        }
    }

    /// Runs the package's `streamctl` as `user` (through runuser) with `arguments`.
    func streamctl(as user: ThrowawayUser, _ arguments: [String]) throws -> CommandResult {
        try user.run(DaemonProcess.builtExecutable(named: "streamctl"), arguments)
    }
}
