import ArgumentParser
import Foundation
import StreamServer

/// The `streamd` options that bound what clients can make the daemon hold: connections, their time
/// limits, buffered frames and message ids. Each has an environment variable; a flag wins over it.
///
/// Values are Sendable.
struct LimitOptions: ParsableArguments, Sendable {
    @Option(name: .customLong("max-connections"), help: ArgumentHelp(
        "The most client connections served at once (env STREAMD_MAX_CONNECTIONS).",
        discussion: "Default: 1024, or fewer when the open-file limit leaves less room (it keeps 64 descriptors for the database and the rest). streamd raises its soft open-file limit to the hard one at start-up.",
        valueName: "count"))
    var maxConnections: String?

    @Option(name: .customLong("max-connections-per-user"), help: ArgumentHelp(
        "The most connections one user (uid) may hold at once (env STREAMD_MAX_CONNECTIONS_PER_USER, default 256).",
        valueName: "count"))
    var maxConnectionsPerUser: String?

    @Option(name: .customLong("handshake-timeout"), help: ArgumentHelp(
        "Seconds a new connection may take to send HELLO (env STREAMD_HANDSHAKE_TIMEOUT, default 10).",
        valueName: "seconds"))
    var handshakeTimeout: String?

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp(
        "Seconds a connection with no subscription and no request in progress may stay silent; 0 keeps it for ever (env STREAMD_IDLE_TIMEOUT, default 300).",
        valueName: "seconds"))
    var idleTimeout: String?

    @Option(name: .customLong("frame-timeout"), help: ArgumentHelp(
        "Seconds one frame may take to arrive whole once it has begun (env STREAMD_FRAME_TIMEOUT, default 30).",
        valueName: "seconds"))
    var frameTimeout: String?

    @Option(name: .customLong("max-partial-frame-bytes"), help: ArgumentHelp(
        "The most bytes all connections together may buffer of frames they have begun and not finished; K, M or G for KiB, MiB, GiB (env STREAMD_MAX_PARTIAL_FRAME_BYTES, default 64M).",
        discussion: "A connection whose unfinished frame would pass it is closed with ERROR limit_exceeded.",
        valueName: "bytes"))
    var maxPartialFrameBytes: String?

    @Option(name: .customLong("max-message-id-bytes"), help: ArgumentHelp(
        "The longest message id accepted, in UTF-8 bytes (env STREAMD_MAX_MESSAGE_ID_BYTES, default 128).",
        valueName: "bytes"))
    var maxMessageIDBytes: String?

    /// Descriptors kept out of the connection count: the database, its side files, the socket, logs.
    static let reservedDescriptors = 64

    /// `limits` with every option given (by flag or environment) applied; the total connection limit
    /// defaults to what `descriptorLimit` leaves room for, at two descriptors a connection (its socket
    /// and the duplicate its replies are sent through, see `ReplyOutbox`).
    ///
    /// - Throws: `ValidationError` naming the option and the value it could not take.
    func applied(to limits: ServerLimits, environment: [String: String], descriptorLimit: UInt64) throws -> ServerLimits {
        var limits = limits
        func value(_ flag: String?, _ variable: String) -> (text: String, name: String)? {
            if let flag { return (flag, "--\(variable.dropFirst("STREAMD_".count).lowercased().replacingOccurrences(of: "_", with: "-"))") }
            return environment[variable].map { ($0, variable) }
        }
        func count(_ flag: String?, _ variable: String) throws -> Int? {
            guard let (text, name) = value(flag, variable) else { return nil }
            guard let number = Int(text), number > 0 else {
                throw ValidationError("\(name) must be a whole number above 0 (got \"\(text)\").")
            }
            return number
        }
        func seconds(_ flag: String?, _ variable: String, zeroAllowed: Bool = false) throws -> Duration? {
            guard let (text, name) = value(flag, variable) else { return nil }
            guard let number = Double(text), number.isFinite, zeroAllowed ? number >= 0 : number > 0, number <= 1_000_000 else {
                throw ValidationError("\(name) must be a number of seconds \(zeroAllowed ? "from 0" : "above 0") up to 1000000 (got \"\(text)\").")
            }
            return .milliseconds(Int64((number * 1000).rounded()))
        }
        func bytes(_ flag: String?, _ variable: String) throws -> Int? {
            guard let (text, name) = value(flag, variable) else { return nil }
            let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
            var digits = Substring(text)
            var unit = 1
            if let last = digits.last?.uppercased().first, let factor = units[last] {
                unit = factor
                digits = digits.dropLast()
            }
            guard let number = Int(digits), number > 0, number <= Int.max / unit else {
                throw ValidationError("\(name) must be a number of bytes above 0, with K, M or G for KiB, MiB or GiB (got \"\(text)\").")
            }
            return number * unit
        }
        let room = Int(clamping: descriptorLimit) - Self.reservedDescriptors
        limits.connections.maximumConnections = try count(maxConnections, "STREAMD_MAX_CONNECTIONS")
            ?? max(1, min(limits.connections.maximumConnections, room / 2))
        limits.connections.maximumConnectionsPerUser = try count(maxConnectionsPerUser, "STREAMD_MAX_CONNECTIONS_PER_USER")
            ?? limits.connections.maximumConnectionsPerUser
        limits.connections.handshakeTimeout = try seconds(handshakeTimeout, "STREAMD_HANDSHAKE_TIMEOUT") ?? limits.connections.handshakeTimeout
        limits.connections.idleTimeout = try seconds(idleTimeout, "STREAMD_IDLE_TIMEOUT", zeroAllowed: true) ?? limits.connections.idleTimeout
        limits.connections.frameTimeout = try seconds(frameTimeout, "STREAMD_FRAME_TIMEOUT") ?? limits.connections.frameTimeout
        limits.connections.maximumPartialFrameBytes = try bytes(maxPartialFrameBytes, "STREAMD_MAX_PARTIAL_FRAME_BYTES")
            ?? limits.connections.maximumPartialFrameBytes
        limits.maximumMessageIDBytes = try count(maxMessageIDBytes, "STREAMD_MAX_MESSAGE_ID_BYTES") ?? limits.maximumMessageIDBytes
        return limits
    }
}
