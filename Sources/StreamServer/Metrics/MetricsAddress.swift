import NIOCore

/// Where the metrics endpoint listens: a host (name, IPv4 or bracketed IPv6 address) and a TCP port,
/// parsed from `HOST:PORT` and resolved once, at start-up.
///
/// Values are immutable and Sendable.
public struct MetricsAddress: Sendable, CustomStringConvertible {
    /// The host as given (without brackets for IPv6).
    public let host: String
    /// The TCP port; 0 lets the system pick a free one (the log says which).
    public let port: Int
    /// The address the host resolved to.
    public let socketAddress: SocketAddress

    /// Parses and resolves `text` (`HOST:PORT`, `[IPv6]:PORT`).
    ///
    /// - Throws: `MetricsAddressError` with a sentence naming what was wrong and what to give instead.
    public init(parsing text: String) throws(MetricsAddressError) {
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw MetricsAddressError("--metrics must be HOST:PORT, with an IPv6 address in brackets such as [::1]:9464 (got \"\(text)\").")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw MetricsAddressError("--metrics must be HOST:PORT such as 127.0.0.1:9464; \"\(text)\" has no port.")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") {
                throw MetricsAddressError("--metrics must put an IPv6 address in brackets, such as [::1]:9464 (got \"\(text)\").")
            }
        }
        guard !host.isEmpty else {
            throw MetricsAddressError("--metrics must name a host before the port, such as 127.0.0.1:9464 (got \"\(text)\").")
        }
        guard let port = Int(portText), (0...65535).contains(port) else {
            throw MetricsAddressError("--metrics must end in a TCP port from 0 to 65535, such as 127.0.0.1:9464 (got \"\(text)\").")
        }
        do {
            socketAddress = try SocketAddress.makeAddressResolvingHost(String(host), port: port)
        } catch {
            throw MetricsAddressError("--metrics names the host \"\(host)\", which does not resolve to an address; give an IP address such as 127.0.0.1 or a name this machine resolves.")
        }
        self.host = String(host)
        self.port = port
    }

    /// Whether the address is a loopback one (127.0.0.0/8 or ::1), reachable from this machine only.
    public var isLoopback: Bool {
        switch socketAddress {
        case let .v4(address):
            return UInt32(bigEndian: address.address.sin_addr.s_addr) >> 24 == 127
        case let .v6(address):
            // ::1, fifteen zero bytes and a one.
            return withUnsafeBytes(of: address.address.sin6_addr) { $0.elementsEqual([UInt8](repeating: 0, count: 15) + [1]) }
        default:
            return false
        }
    }

    /// `HOST:PORT` as given.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Why a `--metrics` value was refused: a sentence naming the value and what to give instead.
///
/// Values are immutable and Sendable.
public struct MetricsAddressError: Error, Sendable, CustomStringConvertible {
    /// The sentence.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
