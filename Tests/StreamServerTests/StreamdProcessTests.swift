import EventLog
import Foundation
import StreamProtocol
import Testing

@testable import StreamServer

/// A `streamd` child process whose standard error is collected as it arrives.
final class DaemonProcess: @unchecked Sendable {
    /// The built `streamd`, next to the test bundle.
    static var executable: String {
        let current = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent("streamd").path
    }

    let process = Process()
    private let condition = NSCondition()
    private var errorText = ""
    private var outputText = ""
    private var closedPipes = 0

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errorPipe = Pipe()
        let outputPipe = Pipe()
        // Without close-on-exec, a daemon another test starts at the same moment inherits these pipes
        // and holds them open, so their end of file would come only when that daemon exits.
        for pipe in [errorPipe, outputPipe] {
            _ = fcntl(pipe.fileHandleForReading.fileDescriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(pipe.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        process.standardError = errorPipe
        process.standardOutput = outputPipe
        errorPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            self?.collect(data, error: true)
        }
        outputPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            self?.collect(data, error: false)
        }
        try process.run()
    }

    private func collect(_ data: Data, error: Bool) {
        condition.lock()
        if data.isEmpty {
            closedPipes += 1
        }
        if error { errorText += String(decoding: data, as: UTF8.self) } else { outputText += String(decoding: data, as: UTF8.self) }
        condition.broadcast()
        condition.unlock()
    }

    var standardError: String {
        condition.lock()
        defer { condition.unlock() }
        return errorText
    }

    var standardOutput: String {
        condition.lock()
        defer { condition.unlock() }
        return outputText
    }

    /// Waits until standard error contains `text` (the daemon logs "listening" once it serves).
    func waitForError(containing text: String, timeout: TimeInterval = 15) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !errorText.contains(text) {
            if closedPipes == 2 { throw TestFailure("streamd exited without \"\(text)\"; stderr: \(errorText)") }
            if !condition.wait(until: deadline) { throw TestFailure("no \"\(text)\" within \(timeout) s; stderr: \(errorText)") }
        }
    }

    /// Waits for the process to exit (and its output to be read) and returns its status.
    func waitForExit() -> Int32 {
        process.waitUntilExit()
        let deadline = Date(timeIntervalSinceNow: 5)
        condition.lock()
        while closedPipes < 2, condition.wait(until: deadline) {}
        condition.unlock()
        return process.terminationStatus
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// A daemon started on `directory`'s socket and database, once it listens.
    static func serving(_ directory: ShortTemporaryDirectory, extra: [String] = []) throws -> DaemonProcess {
        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", directory.database] + extra)
        try daemon.waitForError(containing: "listening")
        return daemon
    }
}

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
        try log.read("load", from: .allRetained) { event in
            stored[event.sequence] = [UInt8](event.payload)
            return true
        }
        let lost = acknowledged.filter { stored[$0.key] != $0.value }
        #expect(lost.isEmpty, "\(lost.count) acknowledged events are missing or different")
    }

    @Test func helpExplainsEveryOptionAndItsVariable() throws {
        let help = try DaemonProcess(["--help"])
        #expect(help.waitForExit() == 0)
        let text = help.standardOutput + help.standardError
        for word in ["--socket", "--db", "--durability", "--log-level", "--socket-mode", "STREAMD_SOCKET", "STREAMD_DB", "STREAMD_DURABILITY", "STREAMD_LOG_LEVEL"] {
            #expect(text.contains(word), "help does not mention \(word)")
        }
    }

    @Test(arguments: [["--no-such-flag"], ["--durability", "sometimes"], ["--socket-mode", "9x"], ["--log-level", "loud"]])
    func badUsageExits64(arguments: [String]) throws {
        let daemon = try DaemonProcess(arguments)
        #expect(daemon.waitForExit() == 64)
    }
}
