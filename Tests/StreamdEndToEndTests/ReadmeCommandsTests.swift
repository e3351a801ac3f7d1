import Foundation
import StreamdTestSupport
import Testing

/// The README's shell commands: each is run by a test (the walkthrough's, every one of them, by
/// `WalkthroughTests`; the benchmark by the tests here; `swift test` by `.ci/run`), or named below as
/// run by hand only.
@Suite struct ReadmeCommandsTests {
    /// Commands the test suite does not run, and why: the reactive benchmark builds a separate package
    /// in release mode with OpenCombine, the peers' script installs and starts Redis and NATS, and the
    /// service's commands need systemd as the machine's init (the units themselves are checked by
    /// `systemd-analyze verify` in `InstallScriptTests`).
    static let runByHandOnly = [
        "Tools/ReactiveBench/run.sh", "../shared/peers/run-peers.sh", "PEERS_CPU_LATENCY=0 ../shared/peers/run-peers.sh",
        "sudo systemd-sysusers", "sudo systemctl ", "systemctl --user ", "sudo usermod ", "export STREAMD_SOCKET=",
    ]

    /// Commands outside the walkthrough whose run is checked elsewhere: the install script by
    /// `InstallScriptTests` (into a temporary prefix), the metrics endpoint and its scrape by
    /// `MetricsProcessTests`, `streamctl ls` by the walkthrough, daemons on PostgreSQL (a server the
    /// tests start, its user and database made by them rather than `createuser`) and its offline
    /// verify by `PostgresDaemonsTests`.
    static let runElsewhere = [
        "swift test", "swift run streamd", "Tools/install.sh", "sudo Tools/install.sh", "streamd --metrics ", "curl -s http://127.0.0.1:9464/metrics",
        "streamctl ls", "sudo -u postgres createuser streamd", "streamd --db 'postgres", "streamctl verify --db 'postgres",
    ]

    @Test func everyREADMECommandIsRunByATestOrNamedAsRunByHand() throws {
        let commands = try Self.shellCommands()
        #expect(!commands.isEmpty)
        for command in commands {
            let known = command.hasPrefix("swift run -c release streambench")
                || command.hasPrefix("STREAMD_CPU_LATENCY_REQUEST=1000 swift run -c release streambench")
                || (Self.runByHandOnly + Self.runElsewhere).contains { command.hasPrefix($0) }
            #expect(known, "the README runs \(command), which no test runs")
        }
    }

    @Test func theClientBenchmarkPrintsEveryFigureInThePeersForm() async throws {
        let result = try await onOwnThread { try ToolProcess.run("streambench", ["--events", "2000", "--payload", "100", "--runs", "1"], timeout: 300) }
        #expect(result.status == 0, "\(result)")
        for metric in ["ping", "ping_daemon_cpu", "ping_floor", "ping_floor_cpu", "rtt", "publish", "replay", "many_publishers", "many_daemon_cpu", "many_client_cpu", "group_consume", "trickle_daemon_cpu", "latency_p50", "latency_p99", "latency_p999", "latency_floor_p50", "latency_floor_p99", "latency_floor_p999", "fanout_deliveries", "fanout_publish", "daemon_rss", "daemon_peak_rss"] {
            #expect(result.lines.contains { $0.hasPrefix("peer=streamd metric=\(metric) value=") && $0.contains(" unit=") }, "no \(metric) in \(result)")
        }
        // The CPU figures are read from the daemon's, this run's and the bare server's own accounts: a
        // figure of zero would mean the wrong process or thread was read.
        for metric in ["ping_daemon_cpu", "ping_floor_cpu", "many_daemon_cpu", "many_client_cpu"] {
            let value = result.lines.first { $0.hasPrefix("peer=streamd metric=\(metric) value=") }
                .flatMap { $0.split(separator: " ").first { $0.hasPrefix("value=") } }
                .flatMap { Double($0.dropFirst("value=".count)) }
            #expect((value ?? 0) > 0, "\(metric) is not a positive figure in \(result)")
        }
    }

    @Test func theSoakPrintsItsFiguresAndWhetherEachBarHeld() async throws {
        let result = try await onOwnThread { try ToolProcess.run("streambench", ["--soak", "--seconds", "2", "--idle", "40", "--payload", "100"], timeout: 120) }
        #expect(result.status == 0, "\(result)")
        for metric in ["soak_quiet_publish", "soak_hostile_publish", "soak_daemon_hostile_cpu", "soak_paced_hostile_publish", "soak_daemon_paced_hostile_cpu", "soak_daemon_peak_rss", "soak_lost_events", "soak_half_sent_frames", "soak_idle_connections", "soak_oversized_ids", "soak_garbage", "soak_connect_storm"] {
            #expect(result.lines.contains { $0.hasPrefix("peer=streamd metric=\(metric) value=") }, "no \(metric) in \(result)")
        }
        #expect(result.lines.contains("peer=streamd metric=soak_lost_events value=0.000 unit=events (acknowledged but never received)"), "\(result)")
        #expect(result.standardError.components(separatedBy: "\n").filter { $0.hasPrefix("# held: ") || $0.hasPrefix("# MISSED: ") }.count == 5, "\(result)")
    }

    @Test func theLogBenchmarkPrintsItsFigures() async throws {
        let result = try await onOwnThread { try ToolProcess.run("streambench", ["--log", "--events", "2000", "--runs", "1", "--big", "2000"], timeout: 120) }
        #expect(result.status == 0, "\(result)")
        for metric in ["append_batched_normal", "replay_from_start", "stored_bytes_ratio", "append_one_per_commit_normal", "append_one_per_commit_normal_exclusive", "append_64_per_commit_normal"] {
            #expect(result.lines.contains { $0.hasPrefix("peer=streamd metric=\(metric) value=") }, "no \(metric) in \(result)")
        }
    }

    @Test func badArgumentsExit64WithTheUsage() throws {
        let result = try ToolProcess.run("streambench", ["--events", "many"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("usage: streambench"))
    }

    /// The command lines of the README's ```sh blocks but the walkthrough (the block that starts the
    /// daemon with `$ swift run streamd`), their comments cut off.
    static func shellCommands() throws -> [String] {
        let blocks = try ReadmeBlocks.readme.components(separatedBy: "```sh\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        return blocks.filter { !$0.contains("$ swift run streamd\n") }.flatMap { block in
            block.split(separator: "\n").filter { !$0.hasPrefix(" ") }
                .map { $0.components(separatedBy: " #").first!.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
    }
}
