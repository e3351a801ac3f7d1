/// What a client may do to a stream: the unit an access file grants.
///
/// - `read`: subscribe (tail, history reads, replay's source): the stream's events.
/// - `publish`: `PUBLISH`, `PUBLISH_BATCH` and `END_STREAM` to a stream that exists.
/// - `admin`: create, configure, truncate and delete the stream, verify it, and create it by publishing
///   to it while it is missing (which is what `streamctl import` and `replay --to` do to a new stream).
///
/// Any right on a stream lets a client see its description (`GET_STREAM_INFO`, and the stream in
/// `LIST_STREAMS`), since every streamctl verb looks the stream up first.
/// Values are Sendable.
public enum AccessRight: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// Subscribing to the stream: its events.
    case read
    /// Appending to the stream (and ending it).
    case publish
    /// Creating, configuring, truncating, deleting and verifying the stream.
    case admin

    /// The name an access file uses: `read`, `publish` or `admin`.
    public var description: String { rawValue }

    /// The rights in the order the documentation lists them.
    public static func < (lhs: AccessRight, rhs: AccessRight) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The verb of a refusal: "may not \(verb) stream X".
    var refusedVerb: String {
        switch self {
        case .read: "read"
        case .publish: "publish to"
        case .admin: "administer"
        }
    }
}
