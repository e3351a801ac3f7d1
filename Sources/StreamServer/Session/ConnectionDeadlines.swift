/// The time limits of one connection, as a pure state machine: the transport reports what it sees
/// (bytes arriving, the session's progress, the time) and asks whether the connection may stay.
///
/// - A connection must say HELLO within `handshakeTimeout` of connecting.
/// - A frame must arrive whole within `frameTimeout` of the previous one (or of the connection's
///   reading resuming, when the server held it back), so a half-sent frame does not hold its bytes.
/// - A greeted connection with nothing in progress (no subscription, no request being answered) may
///   send nothing for at most `idleTimeout` (zero: for ever).
///
/// Times are nanoseconds on a monotonic clock, so the rules are testable without waiting.
/// A value type; the channel handler keeps it on its event loop.
struct ConnectionDeadlines: Sendable {
    /// Whether the connection may stay, and if not, the sentence that tells the client why.
    enum Verdict: Sendable, Equatable {
        case keep
        case close(String)
    }

    private let limits: ConnectionLimits
    private let opened: UInt64
    /// The last time bytes arrived or work was seen in progress.
    private var lastActive: UInt64
    /// When the unfinished frame being watched began, and how many frames had been decoded then.
    private var frameStarted: (at: UInt64, framesDecoded: Int)?
    /// Which limit the last `.close` verdict was for (for the daemon's log).
    private(set) var expired: ConnectionEnd?

    /// Deadlines for a connection opened at `now`.
    init(limits: ConnectionLimits, now: UInt64) {
        self.limits = limits
        opened = now
        lastActive = now
    }

    /// Bytes arrived at `now`.
    mutating func received(now: UInt64) {
        lastActive = max(lastActive, now)
    }

    /// Looks at the connection at `now` and says whether it may stay.
    ///
    /// - Parameters:
    ///   - progress: the session's inbound progress.
    ///   - busy: whether the connection has work in progress (subscriptions, requests, queued bytes).
    ///   - held: whether the server is holding back the connection's reading (backpressure), which
    ///     stops the frame clock: the frame is slow because of the server, not the client.
    mutating func check(now: UInt64, progress: ConnectionSession.InboundProgress, busy: Bool, held: Bool) -> Verdict {
        if !progress.greeted {
            if elapsed(since: opened, now) > limits.handshakeTimeout {
                expired = .handshakeTimeout
                return .close("no HELLO arrived within \(Self.seconds(limits.handshakeTimeout)) of connecting; the connection is closed. Send HELLO as the first frame right after connecting.")
            }
        }
        if busy { lastActive = max(lastActive, now) }
        if progress.bufferedBytes == 0 || held {
            frameStarted = nil
        } else if frameStarted == nil || frameStarted?.framesDecoded != progress.framesDecoded {
            frameStarted = (now, progress.framesDecoded)
        } else if let started = frameStarted, elapsed(since: started.at, now) > limits.frameTimeout {
            expired = .frameTimeout
            return .close("a frame did not arrive whole within \(Self.seconds(limits.frameTimeout)) (\(progress.bufferedBytes) bytes of it came); the connection is closed. Send each frame whole and promptly.")
        }
        if progress.greeted, !busy, limits.idleTimeout > .zero, elapsed(since: lastActive, now) > limits.idleTimeout {
            expired = .idleTimeout
            return .close("the connection sent nothing and had nothing in progress for \(Self.seconds(limits.idleTimeout)); the connection is closed. Reconnect when there is work to do.")
        }
        return .keep
    }

    private func elapsed(since start: UInt64, _ now: UInt64) -> Duration {
        .nanoseconds(Int64(clamping: now >= start ? now - start : 0))
    }

    /// `duration` in seconds for a sentence, e.g. "10 s" or "0.5 s".
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}
