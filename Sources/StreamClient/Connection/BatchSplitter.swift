import StreamProtocol

/// Cuts a batch of payloads into parts that each fit one `PUBLISH_BATCH` frame, and whose reply fits
/// one frame too (`FrameBounds.maximumBatchEntries`), in order. A payload too large for a frame of its
/// own goes alone, so sending it reports `requestTooLarge` naming its size.
///
/// A plain value; `parts(of:)` is pure.
struct BatchSplitter: Sendable {
    /// The daemon's maximum frame length (from `WELCOME`).
    let frameLength: Int
    /// The bytes of a `PUBLISH_BATCH` frame besides its entries: the header, the stream's name, the
    /// expected sequence and the count.
    let fixedLength: Int

    /// A splitter for batches to `stream`, with an expected last sequence when `conditional`.
    init(frameLength: Int, stream: String, conditional: Bool) {
        self.frameLength = frameLength
        fixedLength = Frame.headerLength + 2 + stream.utf8.count + (conditional ? 9 : 1) + 4
    }

    /// The ranges of `payloads` to send as one batch each.
    func parts(of payloads: [[UInt8]]) -> [Range<Int>] {
        let most = FrameBounds.maximumBatchEntries(frameLength: frameLength)
        var parts: [Range<Int>] = []
        var start = 0
        var bytes = fixedLength
        for (index, payload) in payloads.enumerated() {
            // An entry: message_id absent (1), the payload's length (4) and its bytes.
            let size = 1 + 4 + payload.count
            if index > start, index - start >= most || bytes + size > frameLength {
                parts.append(start..<index)
                start = index
                bytes = fixedLength
            }
            bytes += size
        }
        if start < payloads.count || payloads.isEmpty { parts.append(start..<payloads.count) }
        return parts
    }
}
