import Reactive

extension SignalProducer where Value: Codable {
    /// Like `replay()`, keeping the values in `stream` of `log`: the source starts at once, its events
    /// are appended as they come, and every start of the returned producer receives the stream's
    /// retained history (its `policy` decides how much), then the live events.
    ///
    /// So an expensive source runs once and its results outlive the process: if the stream already
    /// holds a terminal event (an earlier run, perhaps in an earlier launch, completed or failed), the
    /// source is not started again and the stored run is replayed. A stream whose earlier run was cut
    /// short keeps its values, and the new run appends after them; delete or truncate the stream to
    /// start afresh. The source's failures are stored as messages (`StreamFailure`).
    ///
    /// - Throws: `EventLogError` if the stream cannot be opened.
    public func replay(
        persistingTo log: EventLog, stream: String, policy: StreamPolicy = StreamPolicy(),
        codec: any EventCodec = JSONEventCodec()
    ) throws -> SignalProducer<Value, StreamFailure> {
        try persistentlyReplayed(log: log, stream: stream, policy: policy, codec: codec, lazily: false)
    }

    /// Like `replay(persistingTo:stream:)` for a stream that keeps only its latest value: a late
    /// subscriber, or the next launch, gets the last value, then the live ones.
    public func replayLast(
        persistingTo log: EventLog, stream: String, codec: any EventCodec = JSONEventCodec()
    ) throws -> SignalProducer<Value, StreamFailure> {
        let policy = StreamPolicy(capacity: .last)
        return try persistentlyReplayed(log: log, stream: stream, policy: policy, codec: codec, lazily: false)
    }

    /// Like `replay(persistingTo:stream:)`, but the source starts only with the first start of the
    /// returned producer (and not at all if the stream holds a finished run).
    public func replayLazily(
        persistingTo log: EventLog, stream: String, policy: StreamPolicy = StreamPolicy(),
        codec: any EventCodec = JSONEventCodec()
    ) throws -> SignalProducer<Value, StreamFailure> {
        try persistentlyReplayed(log: log, stream: stream, policy: policy, codec: codec, lazily: true)
    }

    /// A connection that shares one start of this producer through a persistent replay subject on
    /// `stream`: `connect()` and `autoconnect()` as for any connection, with the events appended to the
    /// log and replayed to late subscribers from it.
    public func multicast(
        persistingTo log: EventLog, stream: String, policy: StreamPolicy = StreamPolicy(),
        codec: any EventCodec = JSONEventCodec()
    ) throws -> MulticastConnection<Value, StreamFailure> {
        let subject = try PersistentReplaySubject<Value>(log: log, stream: stream, policy: policy, codec: codec)
        return storingFailures.multicast(subject)
    }

    private var storingFailures: SignalProducer<Value, StreamFailure> {
        mapError { StreamFailure(describing: $0) }
    }

    private func persistentlyReplayed(
        log: EventLog, stream: String, policy: StreamPolicy, codec: any EventCodec, lazily: Bool
    ) throws -> SignalProducer<Value, StreamFailure> {
        let subject = try PersistentReplaySubject<Value>(log: log, stream: stream, policy: policy, codec: codec)
        let finished = try log.catalogEntry(stream)?.hasEnded ?? false
        let connecting: SignalProducer<Value, StreamFailure>.ReplayConnection =
            finished ? .never : lazily ? .onFirstStart : .now
        return storingFailures.replayed(through: subject, connecting: connecting)
    }
}
