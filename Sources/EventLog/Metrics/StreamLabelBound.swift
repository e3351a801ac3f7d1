/// Chooses the `stream` label of the per-stream series, so that their number stays bounded whatever
/// streams clients make.
///
/// The first `limit` streams seen get a label of their own (their name); every later stream is
/// counted under `StreamLabelBound.otherStreams`, which no stream name can equal (a name never
/// contains parentheses). A stream keeps its label for the life of the process, deleted or not, so
/// its counters never go backwards; a restart picks again.
///
/// A value type: whoever owns it serializes access (the log's writer does).
public struct StreamLabelBound: Sendable {
    /// The label value under which streams past the bound are summed.
    public static let otherStreams = "(other)"

    /// How many streams get a label of their own.
    public let limit: Int
    private var named: Set<String> = []

    /// A bound giving `limit` streams (at least 0) a label of their own.
    public init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The streams that have a label of their own so far.
    public var namedCount: Int { named.count }

    /// The label value for `stream`: its name while the bound allows, else `otherStreams`.
    public mutating func label(for stream: String) -> String {
        if named.contains(stream) { return stream }
        guard named.count < limit else { return Self.otherStreams }
        named.insert(stream)
        return stream
    }
}
