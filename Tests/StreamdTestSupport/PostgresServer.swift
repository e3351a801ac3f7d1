import Foundation
import Synchronization

/// A PostgreSQL server of its own for tests: a cluster made by `initdb` in a fresh directory under
/// /tmp, run by the `postgres` system user and reached on a Unix socket in that directory only (no
/// TCP port), with trust authentication for its one role, `streamd`. `stop()` or deinit ends it and
/// removes the directory.
///
/// `initdb` refuses to run as root, so the server runs as `postgres` (from Debian's postgresql
/// packages) through `runuser`; `isAvailable` says whether this process can start one.
/// Durability is left to the tests that need it: `fsync` is off, which a SIGKILL of the server does
/// not undo (the kernel keeps what was written), only a crash of the machine.
/// Thread-safety: `@unchecked Sendable`; its stored properties are constants, and `stop` is idempotent.
public final class PostgresServer: @unchecked Sendable {
    /// Where Debian's packages put the server's programs: the newest version installed (15 here).
    public static let binaries: String = {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap { Int($0) }.sorted()
        return "\(root)/\(versions.last ?? 15)/bin"
    }()

    /// The directory that holds the cluster (`data`) and the server's socket.
    public let directory: ShortTemporaryDirectory
    /// The port in the socket's name (`.s.PGSQL.<port>`).
    public let port = 5432
    private let server: ToolProcess
    private let stopped = Mutex(false)

    /// Whether this process can start a server: root (for `runuser`), the `postgres` user and the
    /// server's programs.
    public static var unavailableReason: String? {
        if geteuid() != 0 { return "needs root to run PostgreSQL as the postgres user" }
        if getpwnam("postgres") == nil { return "needs the postgres user (Debian's postgresql package)" }
        for tool in ["initdb", "postgres", "pg_isready", "psql", "pg_basebackup", "pg_ctl"] where !FileManager.default.isExecutableFile(atPath: "\(binaries)/\(tool)") {
            return "needs \(binaries)/\(tool) (Debian's postgresql package)"
        }
        return nil
    }

    /// A server shared by the tests of the process, started on first use and stopped (fast
    /// shutdown, then its directory removed) when the process exits, since a static value is never
    /// deinitialized. Give each test a database of its own (`makeDatabase`).
    public static let shared: Result<PostgresServer, any Error> = Result {
        let server = try PostgresServer()
        atexit { if case .success(let server) = PostgresServer.shared { server.stop() } }
        return server
    }

    /// Makes a cluster, starts its server and waits until it accepts connections.
    ///
    /// - Parameters:
    ///   - settings: server settings (`-c name=value`) beside the defaults here.
    ///   - standbyOf: makes this server a streaming standby of that one (`pg_basebackup -R`) instead
    ///     of a cluster of its own.
    ///   - namespace: runs the server in this network namespace (`ip netns exec`); it is reached on
    ///     its Unix socket as ever, and over TCP at the namespace's addresses (`listen_addresses`).
    public init(settings: [String: String] = [:], standbyOf primary: PostgresServer? = nil, namespace: NetworkNamespace? = nil) throws {
        if let reason = Self.unavailableReason { throw TestFailure(reason) }
        directory = try ShortTemporaryDirectory()
        guard let owner = getpwnam("postgres") else { throw TestFailure("no postgres user") }
        guard chown(directory.path, owner.pointee.pw_uid, owner.pointee.pw_gid) == 0 else {
            throw TestFailure("chown \(directory.path) to postgres failed: \(String(cString: strerror(errno)))")
        }
        let data = directory.path + "/data"
        let made = try primary.map { primary in
            try Self.asPostgres("pg_basebackup", ["-h", primary.directory.path, "-p", "\(primary.port)", "-U", "streamd", "-D", data, "-R", "-X", "stream"])
        } ?? Self.asPostgres("initdb", ["-D", data, "-U", "streamd", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"])
        guard made.status == 0 else { throw TestFailure("\(primary == nil ? "initdb" : "pg_basebackup") failed: \(made)") }
        var all = ["listen_addresses": "", "fsync": "off", "unix_socket_directories": directory.path, "max_connections": "200"]
        all.merge(settings) { $1 }
        let options = all.sorted { $0.key < $1.key }.flatMap { ["-c", "\($0.key)=\($0.value)"] }
        let command = ["/usr/sbin/runuser", "-u", "postgres", "--", "\(Self.binaries)/postgres", "-D", directory.path + "/data", "-p", "\(port)"] + options
        let launched = namespace.map { ["/usr/sbin/ip", "netns", "exec", $0.name] + command } ?? command
        server = try ToolProcess(path: launched[0], Array(launched.dropFirst()))
        let ready = pollUntil {
            (try? Self.asPostgres("pg_isready", ["-h", self.directory.path, "-p", "\(self.port)", "-U", "streamd", "-d", "postgres"]).status) == 0
        }
        guard ready else {
            stop()
            throw TestFailure("PostgreSQL did not start: \(server.standardError)")
        }
    }

    /// The URL of database `database` on this server, for libpq and `streamd --db`.
    public func url(database: String = "postgres") -> String {
        let host = directory.path.replacingOccurrences(of: "/", with: "%2F")
        return "postgresql://streamd@\(host):\(port)/\(database)"
    }

    private static let databaseCounter = Mutex(0)

    /// Creates a fresh, empty database and returns its URL.
    public func makeDatabase() throws -> String {
        let serial = Self.databaseCounter.withLock { value -> Int in
            value += 1
            return value
        }
        let name = "t\(getpid())x\(serial)"
        try sql("CREATE DATABASE \(name)")
        return url(database: name)
    }

    /// Runs `statement` with psql on database `database`; returns what it printed (unaligned, no
    /// headers), or throws with psql's error.
    @discardableResult
    public func sql(_ statement: String, database: String = "postgres") throws -> String {
        let result = try ToolProcess.run(
            path: "\(Self.binaries)/psql",
            ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", directory.path, "-p", "\(port)", "-U", "streamd", "-d", database, "-c", statement])
        guard result.status == 0 else { throw TestFailure("psql \(statement) failed: \(result)") }
        return result.standardOutput
    }

    /// Makes this standby the primary (`pg_ctl promote`, waiting until it takes writes).
    public func promote() throws {
        let promoted = try Self.asPostgres("pg_ctl", ["promote", "-w", "-D", directory.path + "/data"])
        guard promoted.status == 0 else { throw TestFailure("pg_ctl promote failed: \(promoted)") }
    }

    /// Kills the server's postmaster with SIGKILL, as a crash of its machine would end it, and waits
    /// until it is gone (its other processes end on their own once they notice).
    public func kill9() {
        guard let pid = processID else { return }
        kill(pid, SIGKILL)
        _ = pollUntil(timeout: .seconds(30)) { kill(pid, 0) != 0 }
    }

    /// The server's process id (the postmaster), from its pid file.
    public var processID: pid_t? {
        guard let text = try? String(contentsOfFile: directory.path + "/data/postmaster.pid", encoding: .utf8),
            let first = text.split(separator: "\n").first
        else { return nil }
        return pid_t(first)
    }

    /// Shuts the server down (fast: open sessions are ended), waits for it to exit and removes its
    /// directory.
    public func stop() {
        guard !stopped.withLock({ old in defer { old = true }; return old }) else { return }
        if let pid = processID {
            kill(pid, SIGINT)
            _ = pollUntil(timeout: .seconds(30)) { kill(pid, 0) != 0 }
        }
        _ = server.finish(timeout: 30)
        try? FileManager.default.removeItem(atPath: directory.path)
    }

    private static func asPostgres(_ tool: String, _ arguments: [String]) throws -> CommandResult {
        try ToolProcess.run(path: "/usr/sbin/runuser", ["-u", "postgres", "--", "\(binaries)/\(tool)"] + arguments)
    }

    deinit { stop() }
}
