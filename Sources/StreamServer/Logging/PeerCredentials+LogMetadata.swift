import Logging
import StreamProtocol

extension PeerCredentials {
    /// The peer as log metadata: `pid`, `uid` and `gid` as numbers, or `unknown` for each when the
    /// credentials could not be read.
    static func logMetadata(_ peer: PeerCredentials?) -> Logger.Metadata {
        guard let peer else { return ["pid": "unknown", "uid": "unknown", "gid": "unknown"] }
        return ["pid": .stringConvertible(peer.pid), "uid": .stringConvertible(peer.uid), "gid": .stringConvertible(peer.gid)]
    }
}
