import Foundation
import Synchronization

/// A network namespace of its own, joined to this one by a veth pair on a /24 of its own: a host on
/// the other end of a wire the test can cut. `cut()` takes the namespace's end of the link down, so
/// that whatever is sent to it is dropped without a word (a host that vanished); `mend()` brings it
/// back. deinit, or `remove()`, deletes the namespace and the pair.
///
/// Needs root and iproute2 (`ip`); `unavailableReason` says why one cannot be made here.
/// Thread-safety: `@unchecked Sendable`; its stored properties are constants, and `remove` is
/// idempotent.
public final class NetworkNamespace: @unchecked Sendable {
    public let name: String
    /// The address of this side, and of the namespace's side.
    public let hostAddress: String
    public let address: String
    private let hostLink: String
    private let link: String
    private let removed = Mutex(false)

    /// Why a namespace cannot be made here, or nil.
    public static var unavailableReason: String? {
        if geteuid() != 0 { return "needs root to make a network namespace" }
        if !FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") { return "needs /usr/sbin/ip (Debian's iproute2 package)" }
        return nil
    }

    /// Makes the namespace, the pair and their addresses (10.231.N.1 here, 10.231.N.2 there, N from
    /// this process's id), and brings both ends up.
    public init() throws {
        if let reason = Self.unavailableReason { throw TestFailure(reason) }
        let tag = Int(getpid()) % 250
        name = "sd\(getpid())"
        hostLink = "sdh\(getpid())"
        link = "sdn\(getpid())"
        hostAddress = "10.231.\(tag).1"
        address = "10.231.\(tag).2"
        try Self.ip(["netns", "add", name])
        do {
            try Self.ip(["link", "add", hostLink, "type", "veth", "peer", "name", link])
            try Self.ip(["link", "set", link, "netns", name])
            try Self.ip(["addr", "add", "\(hostAddress)/24", "dev", hostLink])
            try Self.ip(["link", "set", hostLink, "up"])
            try Self.ip(["netns", "exec", name, "ip", "addr", "add", "\(address)/24", "dev", link])
            try Self.ip(["netns", "exec", name, "ip", "link", "set", link, "up"])
            try Self.ip(["netns", "exec", name, "ip", "link", "set", "lo", "up"])
        } catch {
            remove()
            throw error
        }
    }

    /// Takes the namespace's end of the link down: packets to it are dropped, nothing answers.
    public func cut() throws {
        try Self.ip(["netns", "exec", name, "ip", "link", "set", link, "down"])
    }

    /// Brings the namespace's end of the link up again.
    public func mend() throws {
        try Self.ip(["netns", "exec", name, "ip", "link", "set", link, "up"])
    }

    public func remove() {
        guard !removed.withLock({ old in defer { old = true }; return old }) else { return }
        _ = try? ToolProcess.run(path: "/usr/sbin/ip", ["link", "del", hostLink])
        _ = try? ToolProcess.run(path: "/usr/sbin/ip", ["netns", "del", name])
    }

    deinit { remove() }

    private static func ip(_ arguments: [String]) throws {
        let result = try ToolProcess.run(path: "/usr/sbin/ip", arguments)
        guard result.status == 0 else { throw TestFailure("ip \(arguments.joined(separator: " ")) failed: \(result)") }
    }
}
