import EventLog
import Foundation
import StreamClient
import StreamProtocol
import StreamdTestSupport
import Synchronization
import Testing

/// Several streamd daemons serving one PostgreSQL database (issue 18): one set of streams, one
/// gap-free sequence per stream whichever daemon a publish goes through, a subscriber on one daemon
/// gets what was published through the other, and a daemon killed under load loses nothing it
/// acknowledged.
@Suite(.enabled(if: PostgresServer.unavailableReason == nil, "needs root and Debian's postgresql package"))
struct PostgresDaemonsTests {
    /// A daemon on its own socket serving the database at `url`.
    private func daemon(_ url: String) throws -> (DaemonProcess, ShortTemporaryDirectory) {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", url])
        try daemon.waitForError(containing: "listening")
        return (daemon, directory)
    }

    @Test func publishesThroughTwoDaemonsShareOneSequenceAndASubscriberOnOneSeesBoth() async throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        let (first, firstDirectory) = try daemon(url)
        let (second, secondDirectory) = try daemon(url)
        defer { first.signal(SIGTERM); second.signal(SIGTERM) }
        let setup = try await StreamConnection.connect(socketPath: firstDirectory.socket)
        _ = try await setup.append(bytes("start"), to: "orders")
        let watcher = try await StreamConnection.connect(socketPath: secondDirectory.socket)
        let live = Task {
            var sequences: [UInt64] = []
            for try await event in watcher.events(in: "orders", from: .all) {
                sequences.append(event.sequence)
                if sequences.count == 801 { break }
            }
            return sequences
        }
        let published = try await withThrowingTaskGroup(of: [UInt64].self) { group in
            for publisher in 0..<4 {
                let socket = publisher % 2 == 0 ? firstDirectory.socket : secondDirectory.socket
                group.addTask {
                    let connection = try await StreamConnection.connect(socketPath: socket)
                    defer { connection.close() }
                    var sequences: [UInt64] = []
                    for index in 0..<200 { sequences.append(try await connection.append(bytes("\(publisher)/\(index)"), to: "orders").sequence) }
                    return sequences
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(published.sorted() == Array(2...801))
        #expect(try await live.value == Array(1...801), "the subscriber on the second daemon got every event once, in order")
        for socket in [firstDirectory.socket, secondDirectory.socket] {
            let reader = try await StreamConnection.connect(socketPath: socket)
            var payloads: [String] = []
            for try await event in reader.history(of: "orders", from: .all) { payloads.append(String(decoding: event.payload, as: UTF8.self)) }
            #expect(payloads.count == 801 && Set(payloads).count == 801)
            reader.close()
        }
        watcher.close()
        setup.close()
    }

    @Test func aDaemonKilledUnderLoadLosesNothingItAcknowledgedAndTheOtherGoesOn() async throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        let (doomed, doomedDirectory) = try daemon(url)
        let (survivor, survivorDirectory) = try daemon(url)
        defer { survivor.signal(SIGTERM) }
        let acknowledged = Locked<[UInt64: String]>([:])
        let stopped = Locked<[String]>([])
        // Publishers on threads of their own, with blocking sockets: in a full run synchronous tests
        // may hold the concurrency pool for minutes, and the load must not wait for it to get going.
        let publishers = (0..<4).map { publisher in
            BackgroundWork {
                do {
                    let client = try SocketClient()
                    try client.connect(to: doomedDirectory.socket, timeout: 60)
                    _ = try client.request(.hello(minVersion: 1, maxVersion: 1, clientName: "load \(publisher)"))
                    for index in 0... {
                        let payload = "\(publisher)/\(index)"
                        let sequence = try client.publish(bytes(payload), to: "load")
                        acknowledged.withLock { $0[sequence] = payload }
                    }
                } catch {
                    stopped.withLock { $0.append("publisher \(publisher): \(error)") }
                }
            }
        }
        let loaded = await eventually { acknowledged.withLock { $0.count } >= 2_000 || stopped.withLock { !$0.isEmpty } }
        #expect(
            loaded && stopped.withLock { $0.isEmpty },
            "publishing stopped before the kill after \(acknowledged.withLock { $0.count }) events: \(stopped.withLock { $0 }); the daemon said: \(doomed.standardError)")
        doomed.signal(SIGKILL)
        for publisher in publishers { try publisher.result(within: patience.timeInterval) }
        let client = try await StreamConnection.connect(socketPath: survivorDirectory.socket)
        defer { client.close() }
        var stored: [UInt64: String] = [:]
        for try await event in client.history(of: "load", from: .all) { stored[event.sequence] = String(decoding: event.payload, as: UTF8.self) }
        let sequences = stored.keys.sorted()
        #expect(sequences == Array(1...UInt64(sequences.count)), "no gap")
        for (sequence, payload) in acknowledged.withLock({ $0 }) { #expect(stored[sequence] == payload) }
        let after = try await client.append(bytes("after"), to: "load")
        #expect(after.sequence == UInt64(sequences.count) + 1)
    }

    @Test func aPublishRetriedThroughTheOtherDaemonIsAnsweredWithItsOriginal() async throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        let (first, firstDirectory) = try daemon(url)
        let (second, secondDirectory) = try daemon(url)
        defer { first.signal(SIGTERM); second.signal(SIGTERM) }
        let one = try await StreamConnection.connect(socketPath: firstDirectory.socket)
        let other = try await StreamConnection.connect(socketPath: secondDirectory.socket)
        defer { one.close(); other.close() }
        let original = try await one.append(bytes("paid"), to: "payments", messageID: "payment-7")
        let retried = try await other.append(bytes("paid"), to: "payments", messageID: "payment-7")
        #expect(retried.duplicate && retried.sequence == original.sequence && retried.timestamp == original.timestamp, "\(retried)")
        let fresh = try await other.append(bytes("next"), to: "payments", messageID: "payment-8")
        #expect(!fresh.duplicate && fresh.sequence == 2)
        #expect(try await one.streamInfo("payments").lastSequence == 2)
    }

    @Test func streamctlVerifiesThePostgresLogDirectlyAndNamesADamagedBlock() async throws {
        let server = try PostgresServer.shared.get()
        let url = try server.makeDatabase()
        let (daemon, directory) = try daemon(url)
        defer { daemon.signal(SIGTERM) }
        let client = try await StreamConnection.connect(socketPath: directory.socket)
        for index in 0..<10 { _ = try await client.append(bytes("event \(index)"), to: "checked") }
        client.close()
        let clean = try ToolProcess.run("streamctl", ["verify", "--db", url])
        #expect(clean.status == 0, "\(clean)")
        #expect(clean.standardOutput == "verified \(url): 1 stream, 10 blocks, 10 events: no problems\n", "\(clean)")
        try server.sql("UPDATE streamd.blocks SET crc32 = crc32 + 1 WHERE first_seq = 4", database: String(url.split(separator: "/").last!))
        let damaged = try ToolProcess.run("streamctl", ["verify", "--db", url])
        #expect(damaged.status == 1, "\(damaged)")
        #expect(damaged.standardOutput.contains("stream checked sequence 4: the stored block of sequences 4...4 is damaged: CRC-32"), "\(damaged)")
        let missing = try ToolProcess.run("streamctl", ["verify", "--db", try server.makeDatabase()])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("holds no streamd log (no streamd.version table); check the URL's database name."), "\(missing)")
    }

    /// The live tail waits for the server's notifications and looks at the rows twice a second: an
    /// idle daemon on PostgreSQL costs next to nothing (its tail once spun on a deadline long past).
    @Test func anIdleDaemonOnPostgresUsesAlmostNoCPU() throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        let (daemon, _) = try daemon(url)
        defer { daemon.signal(SIGTERM) }
        let pid = daemon.process.processIdentifier
        // Successive windows of 3 s, for up to a minute, until two in a row are quiet: work left from
        // starting up, slowed by a loaded machine, may fall in the first; a tail that spins fills all.
        var windows: [Double] = []
        var before = try DaemonResources.cpuSeconds(of: pid)
        func twoQuiet() -> Bool { windows.suffix(2).count == 2 && windows.suffix(2).allSatisfy { $0 < 0.15 } }
        while windows.count < 20, !twoQuiet() {
            Thread.sleep(forTimeInterval: 3)
            let now = try DaemonResources.cpuSeconds(of: pid)
            windows.append(now - before)
            before = now
        }
        #expect(twoQuiet(), "an idle daemon used \(windows) s of CPU in each 3 s")
    }

    /// A primary with a synchronous standby: the primary killed with SIGKILL, the standby promoted by
    /// hand. The daemon, given both hosts, finds the new primary by itself; every event it
    /// acknowledged is there, with no gap, and publishing goes on.
    @Test func afterThePrimaryDiesAndTheStandbyIsPromotedNothingAcknowledgedIsLost() async throws {
        let primary = try PostgresServer(settings: ["synchronous_standby_names": "*"])
        let standby = try PostgresServer(standbyOf: primary)
        defer { standby.stop(); primary.stop() }
        #expect(pollUntil {
            (try? primary.sql("SELECT sync_state FROM pg_stat_replication")) == "sync\n"
        }, "the standby never became synchronous")
        try primary.sql("CREATE DATABASE failover")
        let url = "postgresql://streamd@/failover?host=\(primary.directory.path),\(standby.directory.path)&port=5432,5432&target_session_attrs=read-write"
        let (daemon, directory) = try daemon(url)
        defer { daemon.signal(SIGTERM) }
        let client = try await StreamConnection.connect(socketPath: directory.socket)
        defer { client.close() }
        let watcher = try await StreamConnection.connect(socketPath: directory.socket)
        defer { watcher.close() }
        _ = try await client.append(bytes("first"), to: "orders")
        let live = Task {
            var sequences: [UInt64] = []
            for try await event in watcher.events(in: "orders", from: .all, resume: true) {
                sequences.append(event.sequence)
                if event.payload == bytes("last") { break }
            }
            return sequences
        }
        var acknowledged: [UInt64: String] = [1: "first"]
        var failures = 0
        var notRetryable: [String] = []
        var index = 0
        var promoted = false
        // Each event is published with a message id and tried again until it is acknowledged, as a
        // careful client would: a retry of one stored after all is answered with its original.
        while acknowledged.count < 1_500 {
            let payload = "event \(index)"
            do {
                acknowledged[try await client.append(bytes(payload), to: "orders", messageID: payload).sequence] = payload
                index += 1
            } catch {
                failures += 1
                if (error as? StreamClientError)?.isRetryable != true { notRetryable.append("\(error)") }
                #expect(failures < 10_000, "publishing never came back: \(error)")
                if failures >= 10_000 { return }
                try await Task.sleep(for: .milliseconds(10))
            }
            if acknowledged.count == 1_000, !promoted {
                primary.kill9()
                try standby.promote()
                promoted = true
            }
        }
        let last = try await client.append(bytes("last"), to: "orders").sequence
        var stored: [UInt64: String] = [:]
        for try await event in client.history(of: "orders", from: .all) { stored[event.sequence] = String(decoding: event.payload, as: UTF8.self) }
        #expect(stored.keys.sorted() == Array(1...last), "no gap")
        #expect(try await live.value == Array(1...last), "the subscriber got every event once, in order, across the failover")
        for (sequence, payload) in acknowledged { #expect(stored[sequence] == payload, "acknowledged event \(sequence) is missing") }
        #expect(Set(stored.values).count == stored.count, "no event was stored twice")
        // Publishes made while no primary is up fail, with an error that says to try again; the
        // batch in flight when the primary died is tried once more on a new connection, which the
        // promotion may already let through.
        #expect(notRetryable.isEmpty, "\(notRetryable.count) failures were not retryable, the first: \(notRetryable.first ?? "")")
    }

    @Test func streambenchRunsTheClientWorkloadsOnPostgresAndAcrossTwoDaemons() async throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        let result = try await onOwnThread {
            try ToolProcess.run("streambench", ["--db", url, "--events", "2000", "--runs", "1", "--only", "rtt,publish,replay,across"])
        }
        #expect(result.status == 0, "\(result)")
        for metric in ["rtt", "publish", "replay", "across_p50", "across_p99", "across_p999", "near_p50", "near_p99", "near_p999"] {
            #expect(result.standardOutput.contains("peer=streamd metric=\(metric) value="), "no \(metric) in \(result)")
        }
        let refused = try ToolProcess.run("streambench", ["--db", "/tmp/streamd.sqlite"])
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("--db takes a postgres:// URL; without it each run has an SQLite file of its own"), "\(refused)")
    }

    @Test func aStreamDeletedThroughOneDaemonIsMadeAgainByAPublishThroughTheOther() async throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        let (first, firstDirectory) = try daemon(url)
        let (second, secondDirectory) = try daemon(url)
        defer { first.signal(SIGTERM); second.signal(SIGTERM) }
        let deleter = try await StreamConnection.connect(socketPath: firstDirectory.socket)
        let publisher = try await StreamConnection.connect(socketPath: secondDirectory.socket)
        defer { deleter.close(); publisher.close() }
        #expect(try await publisher.append(bytes("one"), to: "gone").sequence == 1)
        #expect(try await publisher.append(bytes("two"), to: "gone").sequence == 2)
        try await deleter.deleteStream("gone")
        #expect(try await publisher.append(bytes("again"), to: "gone").sequence == 1, "a new stream under the name starts at 1")
        var payloads: [String] = []
        for try await event in deleter.history(of: "gone", from: .all) { payloads.append(String(decoding: event.payload, as: UTF8.self)) }
        #expect(payloads == ["again"])
    }

    /// Conditional publishes through two daemons racing for the same last sequence: the database
    /// checks the expectation under the stream's row lock, so each last sequence is won once.
    @Test func conditionalPublishesThroughTwoDaemonsWinEachLastSequenceOnce() async throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        let (first, firstDirectory) = try daemon(url)
        let (second, secondDirectory) = try daemon(url)
        defer { first.signal(SIGTERM); second.signal(SIGTERM) }
        let wins = try await withThrowingTaskGroup(of: [(expected: UInt64, sequence: UInt64)].self) { group in
            for socket in [firstDirectory.socket, secondDirectory.socket, firstDirectory.socket, secondDirectory.socket] {
                group.addTask {
                    let connection = try await StreamConnection.connect(socketPath: socket)
                    defer { connection.close() }
                    var wins: [(UInt64, UInt64)] = []
                    var expected: UInt64 = 0
                    for _ in 0..<150 {
                        do {
                            let receipt = try await connection.append(bytes("after \(expected)"), to: "cas", expectedLastSequence: expected)
                            wins.append((expected, receipt.sequence))
                            expected = receipt.sequence
                        } catch StreamClientError.server(code: .wrongLastSequence, let message) {
                            // The sentence names the sequence the stream ends at: try again after it.
                            let actual = message.split(separator: " ").drop { $0 != "is" }.dropFirst().first.flatMap { UInt64($0.dropLast()) }
                            expected = try #require(actual, "\(message)")
                        }
                    }
                    return wins
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(!wins.isEmpty)
        for win in wins { #expect(win.sequence == win.expected + 1, "a publish expecting \(win.expected) was stored at \(win.sequence)") }
        let sequences = wins.map(\.sequence).sorted()
        #expect(sequences == Array(1...UInt64(sequences.count)), "every stored event was a win, each sequence won once")
        let reader = try await StreamConnection.connect(socketPath: firstDirectory.socket)
        defer { reader.close() }
        #expect(try await reader.streamInfo("cas").lastSequence == UInt64(wins.count))
    }
}
