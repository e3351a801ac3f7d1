extension SignalProducer where Value: Codable {
    /// Like `replay(persistingTo:stream:policy:codec:)` with an `EventLog`, keeping the values in `stream`
    /// of the daemon behind `connection`: the source starts at once, its events are published as they
    /// come, and every start of the returned producer receives the stream's retained history (its
    /// `policy` decides how much), then the live events, whichever process published them.
    ///
    /// So an expensive source runs once across processes and daemon restarts: if the stream already
    /// holds a terminal event (an earlier run, in this process or another, completed or failed), the
    /// source is not started and the stored run is replayed. A stream whose earlier run was cut short
    /// keeps its values, and the new run appends after them; delete or truncate the stream to start
    /// afresh. The source's failures are stored as messages (`StreamFailure`).
    ///
    /// `async`, where the log's twin is synchronous: whether the stream has ended is the daemon's
    /// answer, awaited here (creating the stream with `policy` if missing, or keeping an existing one's)
    /// rather than waited for on a blocked thread, before the source may start.
    ///
    /// - Throws: `StreamClientError` if the stream cannot be created or read.
    public func replay(
        persistingTo connection: StreamConnection, stream: String, policy: StreamPolicy = StreamPolicy(),
        codec: any EventCodec = JSONEventCodec()
    ) async throws -> SignalProducer<Value, StreamFailure> {
        try await remotelyReplayed(connection: connection, stream: stream, policy: policy, codec: codec, lazily: false)
    }

    /// Like `replay(persistingTo:stream:)` for a stream that keeps only its latest value: a late
    /// subscriber, or another process, gets the last value, then the live ones.
    public func replayLast(
        persistingTo connection: StreamConnection, stream: String, codec: any EventCodec = JSONEventCodec()
    ) async throws -> SignalProducer<Value, StreamFailure> {
        let policy = StreamPolicy(capacity: .last)
        return try await remotelyReplayed(connection: connection, stream: stream, policy: policy, codec: codec, lazily: false)
    }

    /// Like `replay(persistingTo:stream:)`, but the source starts only with the first start of the
    /// returned producer (and not at all if the stream holds a finished run).
    public func replayLazily(
        persistingTo connection: StreamConnection, stream: String, policy: StreamPolicy = StreamPolicy(),
        codec: any EventCodec = JSONEventCodec()
    ) async throws -> SignalProducer<Value, StreamFailure> {
        try await remotelyReplayed(connection: connection, stream: stream, policy: policy, codec: codec, lazily: true)
    }

    /// A connection that shares one start of this producer through a remote replay subject on
    /// `stream`: `connect()` and `autoconnect()` as for any connection, with the events published to the
    /// daemon and replayed to late subscribers, in any process, from it.
    ///
    /// - Throws: `StreamClientError` if the stream cannot be created (it is, with `policy`, if missing).
    public func multicast(
        persistingTo connection: StreamConnection, stream: String, policy: StreamPolicy = StreamPolicy(),
        codec: any EventCodec = JSONEventCodec()
    ) async throws -> MulticastConnection<Value, StreamFailure> {
        try await connection.ensureStream(stream, policy: policy)
        let subject = RemoteReplaySubject<Value>(connection: connection, stream: stream, policy: policy, codec: codec)
        return storingRemoteFailures.multicast(subject)
    }

    private var storingRemoteFailures: SignalProducer<Value, StreamFailure> {
        mapError { StreamFailure(describing: $0) }
    }

    private func remotelyReplayed(
        connection: StreamConnection, stream: String, policy: StreamPolicy, codec: any EventCodec, lazily: Bool
    ) async throws -> SignalProducer<Value, StreamFailure> {
        let info = try await connection.ensureStream(stream, policy: policy)
        let subject = RemoteReplaySubject<Value>(connection: connection, stream: stream, policy: policy, codec: codec)
        let connecting: SignalProducer<Value, StreamFailure>.ReplayConnection =
            info.state != .open ? .never : lazily ? .onFirstStart : .now
        return storingRemoteFailures.replayed(through: subject, connecting: connecting)
    }
}
