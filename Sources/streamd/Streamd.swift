import ArgumentParser
import EventLog
import Foundation
import Logging
import ServiceLifecycle
import StreamProtocol
import StreamServer

/// The `streamd` daemon: serves named event streams to local programs over a Unix domain socket.
@main
struct Streamd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streamd",
        abstract: "Serve persistent named event streams to local programs over a Unix domain socket.",
        discussion: """
            Each option may also be set by its environment variable; a flag wins over the variable.

            Stop the daemon with SIGTERM or SIGINT: it answers what it already received, ends every \
            subscription, closes the database and removes the socket file. It refuses to start when \
            another daemon serves the socket or the database; a socket file left by a crash is replaced.

            Under systemd (packaging/systemd): with NOTIFY_SOCKET set, streamd sends READY=1 once it \
            listens and STOPPING=1 when it begins to stop (Type=notify); when LISTEN_PID names it and \
            LISTEN_FDS is 1 or more, it serves the listening socket passed as descriptor 3 instead of \
            binding --socket, and leaves that socket's file in place when it stops (socket activation).

            Exit status: 0 after a clean stop, 64 on bad usage, 1 when it cannot start or serve.
            """,
        version: StreamdVersion.current
    )

    @Option(name: .long, help: ArgumentHelp(
        "The Unix domain socket to listen on (env STREAMD_SOCKET).",
        discussion: "Default: $XDG_RUNTIME_DIR/streamd.sock, else /tmp/streamd-<uid>/streamd.sock (a directory only this user may enter).",
        valueName: "path"))
    var socket: String?

    @Option(name: .long, help: ArgumentHelp(
        "The event log's database file (env STREAMD_DB).",
        discussion: "Default: $XDG_STATE_HOME/streamd/streamd.sqlite, else ~/.local/state/streamd/streamd.sqlite; the directory is created.",
        valueName: "path"))
    var db: String?

    @Option(name: .long, help: ArgumentHelp(
        "normal: a commit survives a crash of streamd; full: it also survives power loss (env STREAMD_DURABILITY, default normal).",
        valueName: "normal|full"))
    var durability: String?

    @Option(name: .customLong("log-level"), help: ArgumentHelp(
        "trace, debug, info, notice, warning, error or critical (env STREAMD_LOG_LEVEL, default info).",
        valueName: "level"))
    var logLevel: String?

    @Option(name: .customLong("log-format"), help: ArgumentHelp(
        "text, or json for one JSON object per line for journald or Loki (env STREAMD_LOG_FORMAT, default text).",
        valueName: "text|json"))
    var logFormat: String?

    @Option(name: .customLong("socket-mode"), help: ArgumentHelp(
        "The socket file's permissions in octal; 600 lets only this user connect.",
        valueName: "octal"))
    var socketMode: String = "600"

    @Option(name: .customLong("idle-spin"), help: ArgumentHelp(
        "Microseconds idle-priority threads keep spinning after each request, to cut wake-ups; 0, the default, turns them off (env STREAMD_IDLE_SPIN).",
        discussion: "Costs CPU: while requests come, one thread per core (at most four) takes every cycle no other work wants, up to a core each; a trickle of requests then keeps the cores busy. In exchange a request or reply wakes its thread at once instead of after tens of microseconds (see the README's trade-off table).",
        valueName: "microseconds"))
    var idleSpin: String?

    @Option(name: .customLong("cpu-latency-request"), help: ArgumentHelp(
        "Microseconds to hold a machine-wide CPU latency request of zero after each request; 0, the default, makes none (env STREAMD_CPU_LATENCY_REQUEST).",
        discussion: "Writes /dev/cpu_dma_latency (root, or a udev rule granting it): while held, every core of the machine polls instead of sleeping when idle, for every program, which costs power. streamd refuses to start when asked and it may not.",
        valueName: "microseconds"))
    var cpuLatencyRequest: String?

    @Option(name: .long, help: ArgumentHelp(
        "The access file granting other users rights on streams (env STREAMD_ACL).",
        discussion: "JSON, see schemas/streamd-acl.schema.json; reloaded on SIGHUP. Default: none, so only the daemon's own user and root may do anything, whatever --socket-mode allows.",
        valueName: "path"))
    var acl: String?

    @OptionGroup(title: "Limits")
    var limitOptions: LimitOptions

    @OptionGroup(title: "Metrics")
    var metricsOptions: MetricsOptions

    @Flag(name: .customLong("accept-lost-events"), help: ArgumentHelp(
        "Open a database that went backwards (a damaged WAL lost acknowledged events), continuing each stream past the sequences it handed out (env STREAMD_ACCEPT_LOST_EVENTS=1).",
        discussion: "Without it streamd refuses such a database and says what was lost; verify reports an accepted loss from then on."))
    var acceptLostEvents = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let durabilityName = durability ?? environment["STREAMD_DURABILITY"] ?? "normal"
        let level: Logger.Level
        var options = try logOptions(durabilityName)
        options.acceptLostEvents = acceptLostEvents || ["1", "true", "yes"].contains(environment["STREAMD_ACCEPT_LOST_EVENTS"]?.lowercased() ?? "")
        let levelName = logLevel ?? environment["STREAMD_LOG_LEVEL"] ?? "info"
        guard let parsedLevel = Logger.Level(rawValue: levelName.lowercased()) else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical (got \"\(levelName)\").")
        }
        level = parsedLevel
        let format = try LogFormat.parse(logFormat, environment: environment)
        guard let mode = UInt32(socketMode, radix: 8), mode <= 0o777 else {
            throw ValidationError("--socket-mode must be octal permission bits such as 600 or 660 (got \"\(socketMode)\").")
        }

        let idleSpinWindow = try Self.microseconds(idleSpin ?? environment["STREAMD_IDLE_SPIN"], option: "--idle-spin")
        let latencyRequestWindow = try Self.microseconds(
            cpuLatencyRequest ?? environment["STREAMD_CPU_LATENCY_REQUEST"], option: "--cpu-latency-request")

        let metricsAddress = try metricsOptions.address(environment: environment)
        options.streamMetricsLimit = try metricsOptions.streamLimit(environment: environment)

        let descriptors = DescriptorLimit.raiseSoftToHard()
        let limits = try limitOptions.applied(
            to: ServerLimits(), environment: environment, descriptorLimit: descriptors?.soft ?? 1024)

        format.bootstrap(level: level)
        let logger = Logger(label: "streamd")
        if let descriptors, limits.connections.maximumConnections > Int(clamping: descriptors.soft) - LimitOptions.reservedDescriptors {
            logger.warning("--max-connections is more than the open-file limit leaves room for; at that limit new clients are refused with an error", metadata: [
                "open-files": "\(descriptors.soft)", "max-connections": "\(limits.connections.maximumConnections)",
            ])
        }

        var configuration = StreamServerConfiguration(
            socketPath: StreamdDefaults.socketPath(socket, environment: environment),
            databasePath: StreamdDefaults.databasePath(db, environment: environment))
        configuration.socketMode = mode
        configuration.accessFile = acl ?? environment["STREAMD_ACL"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.logOptions = options
        configuration.limits = limits
        configuration.idleSpin = idleSpinWindow
        configuration.cpuLatencyRequest = latencyRequestWindow
        if let metricsAddress {
            // Before the server is made: metric handles bind to the backend present when they are made.
            let export = PrometheusExport()
            export.bootstrap()
            configuration.metrics = MetricsConfiguration(address: metricsAddress, exposition: export.exposition)
        }
        try configuration.adoptServiceManager(environment: environment, logger: logger)
        var startup = configuration.logMetadata
        startup["version"] = .string(StreamdVersion.current)
        startup["pid"] = .stringConvertible(getpid())
        startup["open-files"] = .string(descriptors.map { "\($0.soft) (hard \($0.hard))" } ?? "unknown")
        startup["log-level"] = .string(level.rawValue)
        startup["log-format"] = .string(format.rawValue)
        logger.info("streamd \(StreamdVersion.current) starting", metadata: startup)
        let server = StreamServer(configuration: configuration, logger: logger)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: server)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        do {
            try await group.run()
        } catch {
            FileHandle.standardError.write(Data("streamd: \(Self.reason(error))\n".utf8))
            throw ExitCode.failure
        }
    }

    private func logOptions(_ name: String) throws -> EventLogOptions {
        var options = EventLogOptions()
        switch name.lowercased() {
        case "normal": options.durability = .normal
        case "full": options.durability = .full
        default: throw ValidationError("--durability must be normal or full (got \"\(name)\").")
        }
        return options
    }

    /// A window of up to a second given in microseconds; none given is zero (off).
    private static func microseconds(_ text: String?, option: String) throws -> Duration {
        guard let text else { return .zero }
        guard let value = Int(text), (0...1_000_000).contains(value) else {
            throw ValidationError("\(option) must be a number of microseconds from 0 to 1000000 (got \"\(text)\").")
        }
        return .microseconds(value)
    }

    /// The operator's message for a startup or serving failure.
    private static func reason(_ error: any Error) -> String {
        if let error = error as? StreamServerError { return error.description }
        return "\(error)"
    }
}
