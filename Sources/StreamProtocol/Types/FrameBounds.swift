/// The sizes that keep every reply within the maximum frame length the server announces in `WELCOME`
/// (schemas/protocol.md, "Limits"): the most entries one `PUBLISH_BATCH` may carry, so its
/// `PUBLISHED_BATCH` fits, and the largest payload an event may have, so an `EVENTS` frame carrying it
/// alone fits. Both sides compute them from the announced length alone.
///
/// Stateless; its functions are pure.
public enum FrameBounds {
    /// Bytes of a `PUBLISHED_BATCH` frame besides its entries: the header (6), `count` (4) and
    /// `timestamp` (8).
    public static let publishedBatchFixedLength = Frame.headerLength + 4 + 8
    /// Bytes of one `PUBLISHED_BATCH` entry: `sequence` (8) and `duplicate` (1).
    public static let publishedBatchEntryLength = 8 + 1
    /// Bytes of an `EVENTS` frame carrying one event, besides its payload: the header (6),
    /// `subscription_id` (4), `count` (4), and the event's `sequence` (8), `timestamp` (8), `kind` (1)
    /// and payload length (4).
    public static let eventsFrameFixedLength = Frame.headerLength + 4 + 4 + 8 + 8 + 1 + 4

    /// The most entries a `PUBLISH_BATCH` may carry when frames are at most `frameLength` bytes: the
    /// most whose `PUBLISHED_BATCH` reply fits (1 864 133 at 16 MiB).
    public static func maximumBatchEntries(frameLength: Int) -> Int {
        Swift.max(1, (frameLength - publishedBatchFixedLength) / publishedBatchEntryLength)
    }

    /// The largest payload an event may have when frames are at most `frameLength` bytes: the largest
    /// whose `EVENTS` frame fits (16 777 181 bytes at 16 MiB).
    public static func maximumPayload(frameLength: Int) -> Int {
        Swift.max(0, frameLength - eventsFrameFixedLength)
    }

    /// Bytes of a `STREAM_PAGE` frame besides its records: the header (6), `count` (4) and `more` (1).
    public static let streamPageFixedLength = Frame.headerLength + 4 + 1

    /// The most bytes one `stream_info` whose name is `nameLength` bytes takes on the wire: the name,
    /// the longest policy, and the fixed-size fields.
    public static func streamInfoMaximumLength(nameLength: Int) -> Int {
        let name = 2 + nameLength
        // capacity, max_age_ms, max_bytes (opt<u64> each), default_start (kind u8 and a u64 argument),
        // deduplication (opt of two opt<u64>).
        let policy = 3 * 9 + 9 + 1 + 2 * 9
        // count, first/last sequence, first/last time, stored and raw bytes (u64 each), subscribers
        // (u32), state (u8), publish_rate (u64).
        let figures = 7 * 8 + 4 + 1 + 8
        return name + policy + figures
    }
}
