import NIOCore
import StreamProtocol

extension PeerCredentials {
    /// The credentials of the process on the other end of `channel` (a connected Unix socket), as the
    /// kernel recorded them when that process listened; nil when the kernel gives none. The same
    /// reading as the server's (StreamServer's `PeerCredentials.of`), which this module cannot import.
    static func of(_ channel: any Channel) async -> PeerCredentials? {
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let raw: PeerCredentials.Raw? = try? await provider.unsafeGetSocketOption(
            level: .socket, name: NIOBSDSocket.Option(rawValue: PeerCredentials.socketOption)).get()
        return raw.flatMap(PeerCredentials.init)
    }
}
