import Synchronization

/// Publishes each event exactly once across lost connections and daemon restarts.
///
/// Every append gets a message id of the publisher's own (`idPrefix`, a dash, and a count). An append
/// whose connection is lost, or whose daemon cannot reach its database for a moment (a PostgreSQL
/// failover), is sent again with the same id on a new connection until it is acknowledged, waiting
/// between tries as `reconnect` says. The daemon stores the id with the event, in the same commit, and
/// keeps the ids of each stream's last 10 000 events across restarts and crashes, so a retry of an
/// event stored before is answered with its original sequence (and `duplicate`) instead of storing it
/// twice. Errors a retry cannot mend (a bad stream name, a full disk, a refusal) are thrown at once.
///
/// ```swift
/// let publisher = IdempotentPublisher(socketPath: "/run/streamd/streamd.sock")
/// let receipt = try await publisher.append(Array("paid".utf8), to: "payments")
/// ```
///
/// Thread-safety: Sendable; appends may be made from many tasks at once, each retrying on its own,
/// over one shared connection.
public final class IdempotentPublisher: Sendable {
    private let socketPath: String?
    private let clientName: String
    private let trustedDaemonUser: UInt32?
    private let policy: ReconnectPolicy
    /// What every id this publisher gives starts with.
    public let idPrefix: String
    private let nextID = Atomic<UInt64>(0)
    private let state = Mutex<(connection: StreamConnection?, closed: Bool)>((nil, false))

    /// A publisher that connects when it first appends, as `StreamConnection.connect` does.
    ///
    /// - Parameters:
    ///   - socketPath: the daemon's socket; nil for the default.
    ///   - clientName: the name it gives itself in the handshake (`HELLO`).
    ///   - trustedDaemonUser: a uid whose daemon may be trusted too (a shared service's user).
    ///   - idPrefix: what its ids start with; by default up to 16 random hex digits, so ids of
    ///     publishers that run at once, or one after another, do not meet. Give a stable prefix to a
    ///     program that must recognise its own publishes after it restarts, and publish in the same
    ///     order.
    ///   - reconnect: how often, and how far apart, an append is tried again.
    public init(
        socketPath: String? = nil, clientName: String = "StreamClient", trustedDaemonUser: UInt32? = nil,
        idPrefix: String? = nil, reconnect: ReconnectPolicy = .standard
    ) {
        self.socketPath = socketPath
        self.clientName = clientName
        self.trustedDaemonUser = trustedDaemonUser
        self.idPrefix = idPrefix ?? String(UInt64.random(in: 0...UInt64.max), radix: 16)
        policy = reconnect
    }

    /// Appends `payload` to `stream` under the next id and returns once it is stored, once.
    ///
    /// - Throws: the last `StreamClientError` once `reconnect`'s tries ran out; at once, any error a
    ///   retry cannot mend; `.connectionClosed` after `close()`.
    public func append(_ payload: [UInt8], to stream: String) async throws -> AppendReceipt {
        let id = "\(idPrefix)-\(nextID.add(1, ordering: .relaxed).newValue)"
        var delay = policy.initialDelay
        var tries = 0
        while true {
            var used: StreamConnection?
            do {
                let connection = try await connection()
                used = connection
                return try await connection.append(payload, to: stream, messageID: id)
            } catch let error as StreamClientError where error.isRetryable && !isClosed {
                // A database that was out of reach leaves the connection as it was, for every append on it.
                if let used, error.isConnectionLoss { drop(used) }
                tries += 1
                guard tries <= policy.maximumAttempts else { throw error }
                try await Task.sleep(for: delay)
                delay = min(delay * 2, policy.maximumDelay)
            }
        }
    }

    /// Closes the connection; appends waiting on it, and later ones, throw `.connectionClosed`.
    public func close() {
        let connection = state.withLock { state in
            state.closed = true
            defer { state.connection = nil }
            return state.connection
        }
        connection?.close()
    }

    private var isClosed: Bool { state.withLock { $0.closed } }

    /// The open connection, made if there is none; of two appends that connect at once, the second
    /// closes its own and takes the first's.
    private func connection() async throws -> StreamConnection {
        if let open = state.withLock({ $0.connection }), !open.isClosed { return open }
        guard !isClosed else { throw StreamClientError.connectionClosed("the publisher was closed") }
        let made = try await StreamConnection.connect(socketPath: socketPath, clientName: clientName, trustedDaemonUser: trustedDaemonUser)
        let kept = state.withLock { state -> StreamConnection? in
            guard !state.closed else { return nil }
            if let open = state.connection, !open.isClosed { return open }
            state.connection = made
            return made
        }
        if kept !== made { made.close() }
        guard let kept else { throw StreamClientError.connectionClosed("the publisher was closed") }
        return kept
    }

    /// Forgets `connection` after it failed, so the next try connects anew.
    private func drop(_ connection: StreamConnection) {
        let dropped = state.withLock { state -> Bool in
            guard state.connection === connection else { return false }
            state.connection = nil
            return true
        }
        if dropped { connection.close() }
    }
}
