import StreamProtocol

/// Turns a connection's received bytes, however they are split, into the steps to take: frames cut
/// by a `FrameDecoder`, checked by the `ConnectionState` (handshake first, fatal errors close), and
/// consecutive `PUBLISH` requests that can share a commit gathered into one `PublishRun`. A publish
/// is read where it lies, and one to the stream of the run before it adds only its payload.
///
/// After a fatal protocol error its reply is the last step, and later bytes give none.
/// A value type; the session keeps it under its inbound lock.
struct StepDecoder: Sendable {
    private var frames: FrameDecoder
    private var connection: ConnectionState
    private let maximumEventBytes: Int

    init(frames: FrameDecoder, connection: ConnectionState, maximumEventBytes: Int) {
        self.frames = frames
        self.connection = connection
        self.maximumEventBytes = maximumEventBytes
    }

    /// Whether the connection is closed (after a fatal error or `close`).
    var isClosed: Bool { connection.isClosed }

    /// Closes the connection: later bytes give no steps.
    mutating func close() { connection.close() }

    /// The steps of the frames that `bytes` complete, in arrival order.
    mutating func steps(from bytes: some Collection<UInt8>) -> [ConnectionSession.Step] {
        guard !connection.isClosed else { return [] }
        frames.append(bytes)
        var steps: [ConnectionSession.Step] = []
        // The open run stays out of `steps` while it grows, so its arrays grow in place.
        var run: PublishRun?
        func closeRun() {
            if let finished = run { steps.append(.publish(finished)) }
            run = nil
        }
        while !connection.isClosed {
            let next: (type: UInt8, requestID: UInt32, body: WireReader)
            do {
                guard let frame = try frames.nextBody() else { break }
                next = frame
            } catch {
                closeRun()
                append(connection.failed(Self.protocolError(error)), requestID: 0, to: &steps)
                break
            }
            do {
                if next.type == PublishBody.messageType, connection.isOpen {
                    let publish = try PublishBody(body: next.body)
                    if run?.absorb(publish, requestID: next.requestID, maximumEventBytes: maximumEventBytes) == true { continue }
                    closeRun()
                    run = try PublishRun(publish, requestID: next.requestID, maximumEventBytes: maximumEventBytes)
                    if run == nil { steps.append(.handle(.publish(try publish.message()), requestID: next.requestID)) }
                    continue
                }
                let message = try ClientMessage(type: next.type, body: next.body)
                closeRun()
                append(connection.received(message), message, requestID: next.requestID, to: &steps)
            } catch {
                closeRun()
                append(connection.failed(Self.protocolError(error)), requestID: next.requestID, to: &steps)
                break
            }
        }
        closeRun()
        return steps
    }

    private func append(
        _ action: ConnectionState.Action, _ message: ClientMessage? = nil, requestID: UInt32, to steps: inout [ConnectionSession.Step]
    ) {
        switch action {
        case .dispatch: if let message { steps.append(.handle(message, requestID: requestID)) }
        case .ignore: break
        case let .reply(reply): steps.append(.send(reply, requestID: requestID))
        case let .replyAndClose(reply): steps.append(.closeThenSend(reply, requestID: requestID))
        }
    }

    private static func protocolError(_ error: any Error) -> ProtocolError {
        error as? ProtocolError ?? .malformed("\(error)")
    }
}
