import StreamProtocol

/// Turns a connection's received bytes, however they are split, into the steps to take: frames cut
/// by a `FrameDecoder`, checked by the `ConnectionState` (handshake first, fatal errors close), and
/// consecutive `PUBLISH` requests that can share a commit gathered into one `PublishRun`. A publish
/// is read where it lies, and one to the stream of the run before it adds only its payload.
///
/// The bytes its frame decoder holds are taken from `budget`, shared by every connection of the hub;
/// when a frame not yet complete would need more than the budget has left, the connection is refused
/// with `ERROR limit_exceeded` and its bytes let go (`refusal` says why, for the log).
///
/// After a fatal protocol error its reply is the last step, and later bytes give none.
/// A value type; the session keeps it under its inbound lock. Call `close()` before dropping it, so
/// the bytes it took go back to the budget.
struct StepDecoder: Sendable {
    private var frames: FrameDecoder
    private var connection: ConnectionState
    private let maximumEventBytes: Int
    private let budget: ByteBudget?
    /// The bytes taken from `budget`.
    private var taken = 0
    /// Frames decoded so far, so a watchdog can tell a frame that makes progress from one that stalls.
    private(set) var framesDecoded = 0
    /// Why the connection was refused, when a limit closed it.
    private(set) var refusal: String?
    /// The `ERROR` that closed the connection for a protocol error (bytes that are not the protocol,
    /// a handshake gone wrong), for the daemon's log.
    private(set) var protocolFailure: (code: ErrorCode, message: String)?

    init(frames: FrameDecoder, connection: ConnectionState, maximumEventBytes: Int, budget: ByteBudget? = nil) {
        self.frames = frames
        self.connection = connection
        self.maximumEventBytes = maximumEventBytes
        self.budget = budget
    }

    /// Whether the connection is closed (after a fatal error or `close`).
    var isClosed: Bool { connection.isClosed }

    /// Whether the handshake is done.
    var isGreeted: Bool { connection.isOpen }

    /// Bytes received of a frame not yet complete.
    var bufferedByteCount: Int { frames.bufferedByteCount }

    /// Closes the connection: later bytes give no steps, and the buffered ones are let go.
    mutating func close() {
        connection.close()
        releaseFrames()
    }

    /// Refuses the connection for a limit: the returned step is the `ERROR limit_exceeded` to send
    /// last (none if it was closed already).
    mutating func refuse(_ message: String) -> ConnectionSession.Step? {
        var steps: [ConnectionSession.Step] = []
        if !connection.isClosed { refusal = message }
        append(connection.refused(.limitExceeded, message), requestID: 0, to: &steps)
        releaseFrames()
        return steps.first
    }

    private mutating func releaseFrames() {
        frames.release()
        budget?.give(taken)
        taken = 0
    }

    /// Takes from the budget what the frame decoder holds beyond what was taken (or gives back what
    /// it no longer holds); false if the budget has not enough left.
    ///
    /// The buffer a decoder keeps between frames (`FrameDecoder.keptCapacity`) is not counted: a
    /// connection sending small frames never meets the budget, even when stalled ones have spent it,
    /// and those buffers are bounded by the connection limit instead.
    private mutating func settleBudget() -> Bool {
        guard let budget else { return true }
        let held = max(0, frames.heldByteCount - FrameDecoder.keptCapacity)
        if held < taken {
            budget.give(taken - held)
        } else if held > taken, !budget.take(held - taken) {
            return false
        }
        taken = held
        return true
    }

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
                framesDecoded += 1
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
                if let refusal = connection.receivedFrame(ofType: next.type) {
                    closeRun()
                    append(refusal, requestID: next.requestID, to: &steps)
                    break
                }
                var body = next.body
                body.version = connection.version
                let message = try ClientMessage(type: next.type, body: body)
                closeRun()
                append(connection.received(message), message, requestID: next.requestID, to: &steps)
            } catch {
                closeRun()
                append(connection.failed(Self.protocolError(error)), requestID: next.requestID, to: &steps)
                break
            }
        }
        closeRun()
        if !connection.isClosed, !settleBudget(), let refused = refuse(budgetRefusal) {
            steps.append(refused)
        }
        if connection.isClosed { releaseFrames() }
        return steps
    }

    private var budgetRefusal: String {
        let limit = budget?.limit ?? 0
        return "this connection's unfinished frame (\(frames.bufferedByteCount) bytes received so far) would take the bytes that all connections together may buffer of unfinished frames past the server's limit of \(limit) bytes; the connection is closed. Retry later, and send each frame whole and promptly."
    }

    private mutating func append(
        _ action: ConnectionState.Action, _ message: ClientMessage? = nil, requestID: UInt32, to steps: inout [ConnectionSession.Step]
    ) {
        switch action {
        case .dispatch: if let message { steps.append(.handle(message, requestID: requestID)) }
        case .ignore: break
        case let .reply(reply): steps.append(.send(reply, requestID: requestID))
        case let .replyAndClose(reply):
            if refusal == nil, case let .error(code, message) = reply { protocolFailure = (code, message) }
            steps.append(.closeThenSend(reply, requestID: requestID))
        }
    }

    private static func protocolError(_ error: any Error) -> ProtocolError {
        error as? ProtocolError ?? .malformed("\(error)")
    }
}
