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

    @Option(name: .customLong("socket-mode"), help: ArgumentHelp(
        "The socket file's permissions in octal; 600 lets only this user connect.",
        valueName: "octal"))
    var socketMode: String = "600"

    @Option(name: .customLong("idle-spin"), help: ArgumentHelp(
        "Microseconds the idle cores keep spinning after each request; 0 turns it off (env STREAMD_IDLE_SPIN, default 1000).",
        discussion: "Waking a sleeping core costs tens of microseconds per request. Run as root, streamd asks the kernel to poll in its idle loop (/dev/cpu_dma_latency); otherwise an idle-priority thread per core spins, yielding to any other work at once.",
        valueName: "microseconds"))
    var idleSpin: String?

    @Option(name: .long, help: ArgumentHelp(
        "The access file granting other users rights on streams (env STREAMD_ACL).",
        discussion: "JSON, see schemas/streamd-acl.schema.json; reloaded on SIGHUP. Default: none, so only the daemon's own user and root may do anything, whatever --socket-mode allows.",
        valueName: "path"))
    var acl: String?

    @OptionGroup(title: "Limits")
    var limitOptions: LimitOptions

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
        guard let mode = UInt32(socketMode, radix: 8), mode <= 0o777 else {
            throw ValidationError("--socket-mode must be octal permission bits such as 600 or 660 (got \"\(socketMode)\").")
        }

        let idleSpinText = idleSpin ?? environment["STREAMD_IDLE_SPIN"]
        let idleSpinMicroseconds = try idleSpinText.map { text in
            guard let value = Int(text), (0...1_000_000).contains(value) else {
                throw ValidationError("--idle-spin must be a number of microseconds from 0 to 1000000 (got \"\(text)\").")
            }
            return value
        }

        let descriptors = DescriptorLimit.raiseSoftToHard()
        let limits = try limitOptions.applied(
            to: ServerLimits(), environment: environment, descriptorLimit: descriptors?.soft ?? 1024)

        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "streamd")
        logger.info("limits", metadata: [
            "open-files": "\(descriptors.map { "\($0.soft) (hard \($0.hard))" } ?? "unknown")",
            "max-connections": "\(limits.connections.maximumConnections)",
            "max-connections-per-user": "\(limits.connections.maximumConnectionsPerUser)",
        ])
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
        if let idleSpinMicroseconds { configuration.idleSpin = .microseconds(idleSpinMicroseconds) }
        try configuration.adoptServiceManager(environment: environment, logger: logger)
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

    /// The operator's message for a startup or serving failure.
    private static func reason(_ error: any Error) -> String {
        if let error = error as? StreamServerError { return error.description }
        return "\(error)"
    }
}
