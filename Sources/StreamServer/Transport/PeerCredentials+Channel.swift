import NIOCore
import StreamProtocol

extension PeerCredentials {
    /// The credentials of the client on the other end of `channel` (a connected Unix socket); nil
    /// when the kernel gives none. On the channel's event loop the future is already complete.
    static func of(_ channel: any Channel) -> EventLoopFuture<PeerCredentials?> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeSucceededFuture(nil)
        }
        let raw: EventLoopFuture<PeerCredentials.Raw> = provider.unsafeGetSocketOption(
            level: .socket, name: NIOBSDSocket.Option(rawValue: PeerCredentials.socketOption))
        return raw.map(PeerCredentials.init).recover { _ in nil }
    }
}
