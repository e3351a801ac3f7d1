import EventLog

/// Where and how a `StreamServer` serves: socket, database, permissions, log options and limits.
///
/// Values are Sendable.
public struct StreamServerConfiguration: Sendable {
    /// The Unix domain socket path clients connect to.
    public var socketPath: String
    /// The event log's database file; its directory is created if missing.
    public var databasePath: String
    /// The socket file's permission bits (0600 by default: only the owner may connect).
    public var socketMode: UInt32 = 0o600
    /// Options of the event log (durability and the rest).
    public var logOptions = EventLogOptions()
    /// The access file granting users other than the daemon's own and root rights on streams
    /// (see `AccessFile`); nil: only those two may act.
    public var accessFile: String?
    /// The limits every connection is held to.
    public var limits = ServerLimits()
    /// The name announced in `WELCOME`.
    public var serverName = "streamd"
    /// How long shutdown waits for a client to take its last frames before closing anyway.
    public var closeTimeout: Duration = .seconds(5)
    /// How often events past their stream's maximum age are dropped when nobody appends to it.
    public var retentionInterval: Duration = .seconds(1)
    /// How long idle-priority threads (one per core, at most four) keep spinning after each request, so
    /// that a request or reply wakes its thread at once (see `IdleSpinner`); zero, the default, turns
    /// them off. While requests come they take every otherwise idle cycle of those cores.
    public var idleSpin: Duration = .zero
    /// How long the process holds a machine-wide CPU latency request of zero after each request, so
    /// that idle cores poll instead of halting (see `CPULatencyRequest`); zero, the default, makes
    /// none. It needs write access to `/dev/cpu_dma_latency` (root, or a udev rule) and changes the
    /// idle policy of every core of the machine while held.
    public var cpuLatencyRequest: Duration = .zero
    /// The Prometheus endpoint, or nil (the default) to serve none.
    public var metrics: MetricsConfiguration?
    /// The listening socket passed by a service manager, adopted instead of binding `socketPath`
    /// (and never removed on stop); nil: the server binds `socketPath` itself.
    public var inheritedListener: InheritedListener?
    /// Where to say "ready" and "stopping" (systemd's `Type=notify`); nil: nobody is told.
    public var serviceManager: ServiceManagerNotifier?

    /// A configuration serving `databasePath` on `socketPath`, with every other setting at its default.
    public init(socketPath: String, databasePath: String) {
        self.socketPath = socketPath
        self.databasePath = databasePath
    }
}
