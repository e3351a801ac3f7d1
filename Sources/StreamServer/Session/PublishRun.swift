import StreamProtocol

/// Consecutive `PUBLISH` requests of one connection that can share one commit: to one stream, none
/// with an expected last sequence (which must be checked alone), each small enough for the log (so
/// one oversize event cannot fail its neighbours). `StepDecoder` gathers them as they arrive, so a
/// window of pipelined publishes is handled as one piece, not request by request.
///
/// A value type; not shared between threads.
struct PublishRun: Sendable {
    /// The most publishes one run (and so one commit) takes.
    static let maximumCount = 1024

    let stream: String
    private(set) var requestIDs: [UInt32]
    private(set) var payloads: [[UInt8]]
    /// Each request's message id; empty while no request of the run has one.
    private(set) var messageIDs: [String?] = []

    /// A run of the one request `publish`, or nil if it cannot share a commit with others; throws if
    /// the stream's name is not valid UTF-8.
    init?(_ publish: PublishBody, requestID: UInt32, maximumEventBytes: Int) throws {
        guard publish.expectedLastSequence == nil, publish.payload.count <= maximumEventBytes else { return nil }
        stream = try publish.stream()
        requestIDs = [requestID]
        payloads = [Array(publish.payload)]
        if let messageID = publish.messageID { messageIDs = [messageID] }
    }

    /// The number of requests.
    var count: Int { requestIDs.count }

    /// Whether no request needs de-duplication, so the run can go to the log without waiting.
    var isPipelinable: Bool { messageIDs.isEmpty }

    /// Adds `publish` if it can share this run's commit; returns whether it did.
    mutating func absorb(_ publish: PublishBody, requestID: UInt32, maximumEventBytes: Int) -> Bool {
        guard count < Self.maximumCount, publish.expectedLastSequence == nil, publish.payload.count <= maximumEventBytes,
            publish.streamUTF8.elementsEqual(stream.utf8)
        else { return false }
        if publish.messageID != nil, messageIDs.isEmpty { messageIDs = Array(repeating: nil, count: count) }
        requestIDs.append(requestID)
        payloads.append(Array(publish.payload))
        if !messageIDs.isEmpty { messageIDs.append(publish.messageID) }
        return true
    }

    /// The run's events as the hub takes them.
    var submissions: [StreamHub.Submission] {
        payloads.indices.map { .init(messageID: messageIDs.isEmpty ? nil : messageIDs[$0], payload: payloads[$0]) }
    }
}
