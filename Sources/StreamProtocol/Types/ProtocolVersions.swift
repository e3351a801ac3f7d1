/// The versions of the protocol this package speaks (see `schemas/protocol.md`): 1, then 2 for
/// listing in pages, then 3 for `COMPACT`, then 4 for durable consumers and a stream's de-duplication
/// window. The daemon accepts any of them in `HELLO`, and the client asks for the newest.
///
/// Thread-safety: constants only.
public enum ProtocolVersions {
    /// Every version spoken, oldest to newest.
    public static let supported: ClosedRange<UInt16> = 1...4
    /// The newest version spoken: what messages are encoded as when no version was agreed yet.
    public static let newest: UInt16 = supported.upperBound
    /// The first version with durable consumers.
    public static let consumers: UInt16 = 4
    /// The first version whose `stream_policy` carries the de-duplication window.
    public static let deduplicationWindows: UInt16 = 4
}
