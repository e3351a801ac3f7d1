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
    /// How long the cores are kept from sleeping after each request, so that a request or reply
    /// wakes its thread at once: by a CPU latency request where the process may make one, else by an
    /// idle-priority thread per core (see `WakeLatencyKeeper`); zero turns it off.
    public var idleSpin: Duration = .milliseconds(1)
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
