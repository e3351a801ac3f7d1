import EventLog
import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

@Suite("streamd process")
struct StreamdProcessTests {
    @Test func itStartsWithItsFlagsAndAnswersAHandshake() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory, extra: ["--durability", "full", "--log-level", "debug"])
        let client = try SocketClient.connected(to: directory.socket)
        #expect(try client.publish([1, 2, 3], to: "s") == 1)
        #expect(daemon.standardError.contains(directory.socket))
        #expect(daemon.standardError.contains("durability=full"))
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test func itTakesItsSocketAndDatabaseFromTheEnvironment() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess([], environment: ["STREAMD_SOCKET": directory.socket, "STREAMD_DB": directory.database])
        try daemon.waitForError(containing: "listening")
        _ = try SocketClient.connected(to: directory.socket)
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        #expect(FileManager.default.fileExists(atPath: directory.database))
    }

    @Test func withNoFlagsItServesFromTheXDGDirectoriesAndCreatesTheStateDirectory() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess([], environment: [
            "STREAMD_SOCKET": "", "STREAMD_DB": "",
            "XDG_RUNTIME_DIR": directory.path, "XDG_STATE_HOME": directory.path + "/state",
        ])
        try daemon.waitForError(containing: "listening")
        _ = try SocketClient.connected(to: directory.path + "/streamd.sock")
        let mode = try permissions(of: directory.path + "/streamd.sock")
        #expect(mode == 0o600)
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        #expect(FileManager.default.fileExists(atPath: directory.path + "/state/streamd/streamd.sqlite"))
    }

    @Test func aSecondDaemonOnTheSameSocketRefusesWithAClearMessage() throws {
        let directory = try ShortTemporaryDirectory()
        let first = try DaemonProcess.serving(directory)
        let other = try ShortTemporaryDirectory()
        let second = try DaemonProcess(["--socket", directory.socket, "--db", other.database])
        #expect(second.waitForExit() == 1)
        #expect(second.standardError.contains("already serving on the socket \(directory.socket)"))
        #expect(second.standardError.contains("process \(first.process.processIdentifier)"))
        _ = try SocketClient.connected(to: directory.socket)
        first.signal(SIGTERM)
        #expect(first.waitForExit() == 0)
    }

    @Test func aSecondDaemonOnTheSameDatabaseRefuses() throws {
        let directory = try ShortTemporaryDirectory()
        let first = try DaemonProcess.serving(directory)
        let other = try ShortTemporaryDirectory()
        let second = try DaemonProcess(["--socket", other.socket, "--db", directory.database])
        #expect(second.waitForExit() == 1)
        #expect(second.standardError.contains("the database \(directory.database) is in use by another streamd (process \(first.process.processIdentifier)"))
        first.signal(SIGTERM)
        #expect(first.waitForExit() == 0)
    }

    @Test func aFileThatIsNotADatabaseStopsItWithExit1AndTheReason() throws {
        let directory = try ShortTemporaryDirectory()
        let text = Data(String(repeating: "not a database. ", count: 64).utf8)
        _ = FileManager.default.createFile(atPath: directory.database, contents: text)
        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", directory.database])
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.standardError.contains("\(directory.database) is not an SQLite database"))
        #expect(!FileManager.default.fileExists(atPath: directory.socket))
        #expect(FileManager.default.contents(atPath: directory.database) == text)
    }

    @Test func aStaleSocketFileIsReplaced() throws {
        let directory = try ShortTemporaryDirectory()
        try makeStaleSocket(at: directory.socket)
        let daemon = try DaemonProcess.serving(directory)
        _ = try SocketClient.connected(to: directory.socket)
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aStopSignalEndsSubscriptionsRemovesTheSocketAndExitsZero(signal: Int32) throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory)
        let subscriber = try SocketClient.connected(to: directory.socket)
        try subscriber.publish([1], to: "s")
        let reply = try subscriber.request(.subscribe(.init(subscriptionID: 3, stream: "s", start: .newOnly, credit: 10)))
        guard case .subscribed = reply else { throw TestFailure("not subscribed: \(reply)") }
        daemon.signal(signal)
        let frames = try subscriber.framesUntilClosed()
        #expect(frames.first?.message == .subscriptionEnded(subscriptionID: 3, reason: .serverShuttingDown, message: "the server is shutting down."))
        #expect(frames.last?.message.errorCode == .shuttingDown)
        #expect(daemon.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: directory.socket))
        #expect(daemon.standardError.contains("stopped"))
    }

    @Test func everyAcknowledgedEventSurvivesSigkillDuringAPublishLoad() throws {
        let directory = try ShortTemporaryDirectory()
        var acknowledged: [UInt64: [UInt8]] = [:]
        do {
            let daemon = try DaemonProcess.serving(directory)
            let client = try SocketClient.connected(to: directory.socket)
            var payloads: [UInt32: [UInt8]] = [:]
            var nextIndex = 0
            func sendBatch() throws {
                var bytes: [UInt8] = []
                for _ in 0..<25 {
                    let id = UInt32(1000 + nextIndex)
                    payloads[id] = payload(nextIndex)
                    bytes += try ClientMessage.publish(.init(stream: "load", payload: payload(nextIndex))).encoded(requestID: id)
                    nextIndex += 1
                }
                try client.write(bytes)
            }
            func take(_ frame: Received) {
                if case let .published(sequence, _, _) = frame.message, let sent = payloads[frame.requestID] {
                    acknowledged[sequence] = sent
                }
            }
            while acknowledged.count < 400 {
                try sendBatch()
                let target = nextIndex
                while acknowledged.count < target, let frame = try client.next() { take(frame) }
            }
            try sendBatch()
            try? sendBatch()
            daemon.signal(SIGKILL)
            #expect(daemon.waitForExit() == SIGKILL)
            while let frame = try? client.next() { take(frame) }
        }
        #expect(acknowledged.count >= 400)
        #expect(FileManager.default.fileExists(atPath: directory.socket))

        let restarted = try DaemonProcess.serving(directory)
        _ = try SocketClient.connected(to: directory.socket)
        restarted.signal(SIGTERM)
        #expect(restarted.waitForExit() == 0)

        let log = try EventLog(path: directory.database)
        defer { log.close() }
        var stored: [UInt64: [UInt8]] = [:]
        try log.read("load", from: .all) { event in
            stored[event.sequence] = [UInt8](event.payload)
            return true
        }
        let lost = acknowledged.filter { stored[$0.key] != $0.value }
        #expect(lost.isEmpty, "\(lost.count) acknowledged events are missing or different")
    }

    @Test func whileItServesNoOtherProcessCanOpenItsDatabase() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory)
        let client = try SocketClient.connected(to: directory.socket)
        #expect(try client.publish([1], to: "s") == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.database + "-shm"), "the WAL index is in the daemon's memory")
        var options = EventLogOptions()
        options.busyTimeoutMilliseconds = 50
        #expect {
            _ = try EventLog(path: directory.database, options: options)
        } throws: { error in
            (error as? EventLogError)?.code == .busy
        }
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let log = try EventLog(path: directory.database)
        #expect(try log.streamInfo("s")?.lastSequence == 1)
        log.close()
    }

    /// By default the daemon neither spins nor makes a CPU latency request, as root or not; each
    /// comes only with its own option or variable.
    @Test func itKeepsWakeUpsShortOnlyWhenAsked() throws {
        let mayRequest = access(CPULatencyRequest.defaultDevicePath, W_OK) == 0
        let spinners = min(ProcessInfo.processInfo.activeProcessorCount, 4)
        var cases: [(arguments: [String], environment: [String: String], spins: Bool, requests: Bool)] = [
            ([], [:], false, false), (["--idle-spin", "1000"], [:], true, false), ([], ["STREAMD_IDLE_SPIN": "1000"], true, false),
            (["--idle-spin", "0"], ["STREAMD_IDLE_SPIN": "1000"], false, false),
        ]
        if mayRequest {
            cases += [(["--cpu-latency-request", "1000"], [:], false, true), ([], ["STREAMD_CPU_LATENCY_REQUEST": "1000"], false, true)]
        }
        for (arguments, environment, spins, requests) in cases {
            let directory = try ShortTemporaryDirectory()
            let daemon = try DaemonProcess.serving(directory, extra: arguments, environment: environment)
            // Requests come, so a keeper would be at work now.
            #expect(try ToolProcess.run("streamctl", ["--socket", directory.socket, "publish", "s", "x"]).status == 0)
            let process = daemon.process.processIdentifier
            #expect(try threads(of: process, withPolicy: IdleSpinner.idlePolicy) == (spins ? spinners : 0), "\(arguments) \(environment)")
            // The log's writer, a batch thread whatever the options: it yields on wake-up, never starves.
            #expect(try threads(of: process, withPolicy: EventLog.writerPolicy) == 1, "\(arguments) \(environment)")
            #expect(try openFiles(of: process).contains(CPULatencyRequest.defaultDevicePath) == requests, "\(arguments) \(environment)")
            daemon.signal(SIGTERM)
            #expect(daemon.waitForExit() == 0)
        }
    }

    /// A latency request asked for where the process may not make one stops the start with a sentence.
    @Test(.enabled(if: ThrowawayUser.isAvailable, "needs root to run the daemon as a throw-away user"))
    func aLatencyRequestItMayNotMakeStopsTheStart() throws {
        let user = try ThrowawayUser()
        let directory = try ShortTemporaryDirectory()
        try user.own(directory.path)
        let result = try user.run(DaemonProcess.executable, [
            "--socket", directory.socket, "--db", directory.database, "--cpu-latency-request", "1000"])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("--cpu-latency-request needs to write /dev/cpu_dma_latency"), "\(result)")
    }

    /// The paths of `process`'s open file descriptors.
    private func openFiles(of process: Int32) throws -> [String] {
        let descriptors = "/proc/\(process)/fd"
        return try FileManager.default.contentsOfDirectory(atPath: descriptors).compactMap { descriptor in
            try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\(descriptor)")
        }
    }

    /// How many of `process`'s threads run under scheduling `policy` (`SCHED_IDLE` for the spinners,
    /// `SCHED_BATCH` for the journaled log's writer). Counted by policy, which is what the test is about
    /// (before `nameCurrentThread`, a spinner's name was lost in about one start in six).
    private func threads(of process: Int32, withPolicy policy: Int32) throws -> Int {
        let tasks = "/proc/\(process)/task"
        return try FileManager.default.contentsOfDirectory(atPath: tasks).filter { task in
            // Field 41 of stat is the policy; fields after the parenthesised name are space-separated.
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(task)/stat", encoding: .utf8),
                  let end = stat.range(of: ") ", options: .backwards) else { return false }
            let fields = stat[end.upperBound...].split(separator: " ")
            return fields.count > 41 - 3 && Int32(fields[41 - 3]) == policy
        }.count
    }

    @Test func helpExplainsEveryOptionAndItsVariable() throws {
        let help = try DaemonProcess(["--help"])
        #expect(help.waitForExit() == 0)
        let text = help.standardOutput + help.standardError
        for word in ["--socket", "--db", "--durability", "--log-level", "--socket-mode", "--idle-spin", "--cpu-latency-request", "STREAMD_SOCKET", "STREAMD_DB", "STREAMD_DURABILITY", "STREAMD_LOG_LEVEL", "STREAMD_IDLE_SPIN", "STREAMD_CPU_LATENCY_REQUEST"] {
            #expect(text.contains(word), "help does not mention \(word)")
        }
    }

    @Test(arguments: [["--no-such-flag"], ["--durability", "sometimes"], ["--socket-mode", "9x"], ["--log-level", "loud"], ["--idle-spin", "-1"], ["--idle-spin", "soon"], ["--cpu-latency-request", "2000000"]])
    func badUsageExits64(arguments: [String]) throws {
        let daemon = try DaemonProcess(arguments)
        #expect(daemon.waitForExit() == 64)
    }
}
