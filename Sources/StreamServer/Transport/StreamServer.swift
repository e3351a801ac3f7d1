import EventLog
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresLog
import ServiceLifecycle
import StreamProtocol
import Synchronization

/// The daemon: serves one event log to local clients over a Unix domain socket until shut down.
///
/// `run` refuses to start when another daemon answers on the socket or holds the database, replaces a
/// stale socket file left by a crash, and binds the socket with `socketMode` permissions (never wider,
/// not even for a moment). On graceful shutdown or cancellation it stops accepting, answers every
/// request already received (publishes are acknowledged after their commit), ends each subscription
/// with `SUBSCRIPTION_ENDED` and each connection with `ERROR shutting_down`, closes the log, removes
/// the socket file (not one a service manager passed: see `InheritedListener`) and releases the
/// database. Run it once.
/// Thread-safety: Sendable; `waitUntilListening` and `connectionCount` may be called from any thread.
public final class StreamServer: Service, Sendable {
    /// Where and how this server serves.
    public let configuration: StreamServerConfiguration
    let logger: Logger

    private enum Phase {
        case starting
        case listening
        case stopping
        case finished(failure: (any Error)?)
    }

    private struct State {
        var phase = Phase.starting
        var connections: [ObjectIdentifier: ServerConnection] = [:]
        var counts: ConnectionCounts
        var waiters: [CheckedContinuation<Void, any Error>] = []
        var nextConnection = 0
    }

    private let state: Mutex<State>
    /// Refusals for limits, logged at a bounded rate.
    private let refusals: RefusalLog
    /// Connections opened and closed (debug) and their protocol errors (warning, at a bounded rate).
    private let connectionLog: ConnectionLog
    /// The descriptor kept to refuse clients when the process runs out.
    private let reserve = DescriptorReserve()
    /// Whether a retention pass is running (a tick finding one still running is skipped).
    private let retentionRunning = Atomic<Bool>(false)

    /// A server for `configuration`, logging to `logger`.
    public init(configuration: StreamServerConfiguration, logger: Logger = Logger(label: "streamd")) {
        self.configuration = configuration
        self.logger = logger
        state = Mutex(State(counts: ConnectionCounts(limits: configuration.limits.connections)))
        refusals = RefusalLog(logger: logger)
        connectionLog = ConnectionLog(logger: logger)
    }

    /// The number of open client connections.
    public var connectionCount: Int { state.withLock { $0.connections.count } }

    /// Returns once the socket accepts connections; throws the startup error if `run` failed first.
    public func waitUntilListening() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome: Result<Void, any Error>? = state.withLock { state in
                switch state.phase {
                case .starting:
                    state.waiters.append(continuation)
                    return nil
                case .listening, .stopping, .finished(failure: nil): return .success(())
                case let .finished(failure: error?): return .failure(error)
                }
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    private func settleStartup(_ outcome: Result<Void, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            switch outcome {
            case .success: state.phase = .listening
            case let .failure(error): state.phase = .finished(failure: error)
            }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(with: outcome) }
    }

    /// Serves until graceful shutdown or cancellation, then drains and cleans up.
    ///
    /// - Throws: `StreamServerError` when the socket or the database is in use or the socket cannot be
    ///   bound; the event log's error when the database cannot be opened.
    public func run() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, System.coreCount))
        var keepers: [any WakeLatencyKeeper] = []
        defer { for keeper in keepers { keeper.stop() } }
        let serving: Serving
        do {
            keepers = try wakeLatencyKeepers(idleSpin: configuration.idleSpin, cpuLatencyRequest: configuration.cpuLatencyRequest)
            serving = try await start(on: group, keepers: keepers)
        } catch {
            settleStartup(.failure(error))
            try? await group.shutdownGracefully()
            throw error
        }
        // Before anyone can see the daemon listening, so a SIGHUP sent after that never ends it.
        let reloading = AccessReloadSignal(serving.access) { [self] in
            // Rights withdrawn by the new rules end the subscriptions that relied on them.
            for connection in state.withLock({ Array($0.connections.values) }) { connection.session.endSubscriptionsNoLongerAllowed() }
        }
        defer { reloading.cancel() }
        settleStartup(.success(()))
        // The settings are in the start-up line; this one says the socket is open, and to whom.
        logger.info("streamd is listening", metadata: [
            "socket": "\(configuration.socketPath)",
            "acl": "\(configuration.accessFile.map { "\($0) (\(serving.access.rules.rules.count) rules in force)" } ?? (geteuid() == 0 ? "none (only root may act)" : "none (only uid \(geteuid()) and root may act)"))",
        ])
        configuration.serviceManager?.send(ServiceManagerNotifier.ready(status: "listening on \(configuration.socketPath)"), logger: logger)

        let channel = serving.channel
        let retention = enforceRetention(of: serving.hub.log, on: group)
        await withTaskCancellationOrGracefulShutdownHandler {
            try? await channel.closeFuture.get()
        } onCancelOrGracefulShutdown: {
            channel.close(promise: nil)
        }
        retention.cancel()
        configuration.serviceManager?.send(ServiceManagerNotifier.stopping(status: "stopping"), logger: logger)
        logger.info("streamd is shutting down", metadata: ["connections": .stringConvertible(connectionCount)])
        await serving.metrics?.stop()
        await drainConnections()
        serving.hub.retireConsumers()
        serving.hub.log.close()
        // An inherited socket's file belongs to the service manager, which keeps listening on it.
        if configuration.inheritedListener == nil, unlink(configuration.socketPath) != 0, errno != ENOENT {
            logger.warning("could not remove the socket file", metadata: ["socket": "\(configuration.socketPath)", "error": "\(String(cString: strerror(errno)))"])
        }
        serving.lock?.release()
        try? await group.shutdownGracefully()
        state.withLock { $0.phase = .finished(failure: nil) }
        logger.info("streamd stopped")
    }

    /// Drops expired events every `retentionInterval`, off the event loop (it waits for the writer).
    private func enforceRetention(of log: any ServedLog, on group: MultiThreadedEventLoopGroup) -> RepeatedTask {
        let interval = TimeAmount.nanoseconds(Int64(configuration.retentionInterval.components.seconds) * 1_000_000_000
            + configuration.retentionInterval.components.attoseconds / 1_000_000_000)
        let logger = logger
        return group.next().scheduleRepeatedTask(initialDelay: interval, delay: interval) { [self] _ in
            // A tick that finds the previous one still waiting for the writer is skipped.
            guard retentionRunning.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
            DispatchQueue.global().async {
                defer { self.retentionRunning.store(false, ordering: .releasing) }
                do {
                    try log.enforceRetention()
                } catch let error as EventLogError where error.code == .closed {
                    // The server is stopping.
                } catch {
                    logger.warning("could not drop expired events", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    private struct Serving {
        let channel: any Channel
        let hub: StreamHub
        /// The SQLite database's lock file, held while the daemon runs; none for PostgreSQL, which many share.
        let lock: DatabaseLock?
        let access: AccessControl
        let metrics: MetricsEndpoint?
    }

    private func start(on group: MultiThreadedEventLoopGroup, keepers: [any WakeLatencyKeeper]) async throws -> Serving {
        let socketPath = configuration.socketPath
        if configuration.inheritedListener == nil { try SocketFile.preparePrivateDirectory(for: socketPath) }
        let access: AccessControl
        do {
            access = try AccessControl(file: configuration.accessFile, logger: logger)
        } catch {
            throw StreamServerError(.accessFile, "\(error)")
        }
        if configuration.inheritedListener == nil { try SocketFile.prepare(socketPath) }
        let (log, lock) = try openLog()
        let hub = StreamHub(log: log, limits: configuration.limits, serverName: configuration.serverName, logger: logger)
        let metrics: MetricsEndpoint?
        do {
            metrics = try await startMetrics(hub: hub)
        } catch {
            hub.log.close()
            lock?.release()
            throw error
        }
        do {
            let channel = try await bind(hub: hub, access: access, keepers: keepers, group: group)
            return Serving(channel: channel, hub: hub, lock: lock, access: access, metrics: metrics)
        } catch {
            await metrics?.stop()
            hub.log.close()
            lock?.release()
            throw error
        }
    }

    /// Opens the log the configuration names: the SQLite file, under its lock, or the PostgreSQL
    /// database of a `postgres://` URL, which other daemons may serve too.
    private func openLog() throws -> (any ServedLog, DatabaseLock?) {
        var options = configuration.logOptions
        options.deduplicationWindow = max(0, configuration.limits.deduplicationWindow)
        options.storageObserver = StorageConditionLogging.observer(logger)
        // Only when its lines are logged: a commit of a capacity-bound stream would report for nothing.
        if logger.logLevel <= .debug { options.retentionObserver = StorageActivityLogging.retentionObserver(logger) }
        if let address = try? PostgresAddress(configuration.databasePath) {
            return (try PostgresLog(address, options: options), nil)
        }
        let directory = try DatabaseDirectory(databasePath: configuration.databasePath)
        let lock = try DatabaseLock(databasePath: configuration.databasePath, directory: directory.descriptor)
        do {
            // The daemon owns its database (the lock file says so to other daemons and to streamctl):
            // SQLite may keep it from other processes too, and spare each commit its file locks.
            options.exclusiveToProcess = true
            // Acknowledged once in the journal; the writer moves appends into SQLite in batches.
            options.journal = true
            options.followsSymlinks = false
            options.checkpointObserver = StorageActivityLogging.checkpointObserver(logger)
            do {
                return (try EventLog(path: directory.resolvedDatabasePath, options: options), lock)
            } catch let error as EventLogError where error.code == .busy {
                throw StreamServerError(.databaseInUse, "another process has the database \(configuration.databasePath) open, and streamd keeps its database to itself while it runs; close that process (a program or shell reading the file), then start streamd again.")
            }
        } catch {
            lock.release()
            throw error
        }
    }

    private func bind(hub: StreamHub, access: AccessControl, keepers: [any WakeLatencyKeeper], group: MultiThreadedEventLoopGroup) async throws -> any Channel {
        let socketPath = configuration.socketPath
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(DescriptorExhaustionHandler(reserve: reserve, logger: logger))
                }
            }
            .childChannelOption(.writeBufferWaterMark, value: .init(low: ReplyOutbox.lowWater, high: ReplyOutbox.highWater))
            .childChannelInitializer { [self] channel in
                if let refused = refuseOutOfDescriptors(channel) {
                    hub.metrics.refused(.outOfDescriptors)
                    return refused
                }
                return PeerCredentials.of(channel).flatMapThrowing { peer in
                    let connection: ServerConnection
                    switch self.accept(channel, peer: peer, hub: hub, access: access, keepers: keepers) {
                    case .stopping:
                        channel.close(promise: nil)
                        return
                    case let .refused(reason, limit):
                        hub.metrics.refused(limit)
                        self.refusals.refused(reason, peer: peer)
                        try channel.pipeline.syncOperations.addHandler(RefusalHandler(message: reason))
                        return
                    case let .accepted(accepted):
                        hub.metrics.connectionsAccepted.increment()
                        connection = accepted
                    }
                    connection.logOpened()
                    // Counted out when the channel closes, even if its handlers could not be added.
                    channel.closeFuture.whenComplete { [self] _ in self.forget(connection) }
                    let handler = SessionHandler(connection: connection) { [self] closed in self.forget(closed) }
                    if !keepers.isEmpty { try channel.pipeline.syncOperations.addHandler(WakeLatencyHandler(keepers)) }
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
        if let inherited = configuration.inheritedListener { return try await inherited.adopt(with: bootstrap) }
        // Bound in a private directory and linked into place: see `SocketFile.bindPrivately`.
        return try await SocketFile.bindPrivately(at: socketPath, mode: mode_t(configuration.socketMode)) { staging in
            do {
                return try await bootstrap.bind(unixDomainSocketPath: staging).get()
            } catch {
                throw StreamServerError(.system, "cannot bind the socket \(socketPath): \(error).")
            }
        } close: { channel in
            try? await channel.close()
        }
    }

    private enum Admission {
        case accepted(ServerConnection)
        /// A connection limit is reached; the sentence says which, and the metrics' reason names it.
        case refused(String, ServerMetrics.RefusalReason)
        case stopping
    }

    /// Registers a new connection, or says why not (a connection limit, or the server stopping).
    private func accept(
        _ channel: any Channel, peer: PeerCredentials?, hub: StreamHub, access: AccessControl, keepers: [any WakeLatencyKeeper]
    ) -> Admission {
        state.withLock { state in
            // Starting too: an inherited socket holds the connection that woke the service, accepted
            // as soon as the channel registers, a moment before `run` says it listens.
            switch state.phase {
            case .starting, .listening: break
            case .stopping, .finished: return .stopping
            }
            if let refusal = state.counts.admit(uid: peer?.uid) {
                let limit = state.counts.total >= configuration.limits.connections.maximumConnections
                return .refused(refusal, limit ? .maxConnections : .maxConnectionsPerUser)
            }
            state.nextConnection += 1
            let connection = ServerConnection(
                hub: hub, channel: channel, peer: peer, access: access, label: "streamd.connection.\(state.nextConnection)",
                keepers: keepers, number: state.nextConnection, refusals: refusals, log: connectionLog)
            state.connections[ObjectIdentifier(connection)] = connection
            return .accepted(connection)
        }
    }

    /// Forgets a closed connection and counts it out of the connection limits (once).
    private func forget(_ connection: ServerConnection) {
        let forgotten = state.withLock { state in
            guard state.connections.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return false }
            state.counts.release(uid: connection.peer?.uid)
            return true
        }
        if forgotten { connection.logClosed() }
    }

    /// Answers a client accepted on the reserve descriptor (see `DescriptorExhaustionHandler`) with
    /// an `ERROR` and closes it; nil for any other client.
    private func refuseOutOfDescriptors(_ channel: any Channel) -> EventLoopFuture<Void>? {
        guard reserve.takeMark(channel) else { return nil }
        let reason = "streamd is out of file descriptors (its limit is \(DescriptorExhaustionHandler.descriptorLimit)); the connection is refused. Retry later; the daemon's operator may raise its open-file limit."
        let refusals = refusals
        PeerCredentials.of(channel).whenSuccess { peer in refusals.refused(reason, peer: peer) }
        channel.closeFuture.whenComplete { [reserve] _ in reserve.hold() }
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RefusalHandler(message: reason))
        }
    }

    /// Answers what every connection already sent, tells it the server is going, and closes it.
    private func drainConnections() async {
        let connections = state.withLock { state -> [ServerConnection] in
            state.phase = .stopping
            return Array(state.connections.values)
        }
        let timeout = TimeAmount.nanoseconds(Int64(configuration.closeTimeout.components.seconds) * 1_000_000_000
            + configuration.closeTimeout.components.attoseconds / 1_000_000_000)
        await withTaskGroup(of: Void.self) { group in
            for connection in connections {
                group.addTask {
                    connection.ends(because: .daemonStopping)
                    connection.stopTakingRequests()
                    // A read being handed to the queue right now finishes on the loop before this.
                    try? await connection.channel.eventLoop.submit {}.get()
                    await connection.waitForQueuedRequests()
                    connection.session.shutDown()
                    connection.closeAfterPendingWrites()
                    let channel = connection.channel
                    let forced = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
                    try? await channel.closeFuture.get()
                    forced.cancel()
                }
            }
        }
    }
}
