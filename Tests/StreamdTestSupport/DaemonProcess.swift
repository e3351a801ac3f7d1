import Foundation

/// A `streamd` child process whose standard error is collected as it arrives.
public final class DaemonProcess: @unchecked Sendable {
    /// The built `streamd`, next to the test bundle.
    public static var executable: String { builtExecutable(named: "streamd") }

    /// The path of the package's executable `name`, built next to the test bundle.
    public static func builtExecutable(named name: String) -> String {
        let current = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(name).path
    }

    public let process = Process()
    private let condition = NSCondition()
    private var errorText = ""
    private var outputText = ""
    private var closedPipes = 0
    /// The reading ends, kept so they stay open while their handlers read.
    private let readers: [FileHandle]

    public init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let (errorRead, errorWrite) = try CloseOnExecPipe.make()
        let (outputRead, outputWrite) = try CloseOnExecPipe.make()
        readers = [errorRead, outputRead]
        process.standardError = errorWrite
        process.standardOutput = outputWrite
        for (handle, isError) in [(errorRead, true), (outputRead, false)] {
            handle.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                if data.isEmpty { handle.readabilityHandler = nil }
                self?.collect(data, error: isError)
            }
        }
        defer {
            // The daemon has its own copies now (or never started); ours would keep the pipes open.
            for handle in [errorWrite, outputWrite] { try? handle.close() }
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

    public var standardError: String {
        condition.lock()
        defer { condition.unlock() }
        return errorText
    }

    public var standardOutput: String {
        condition.lock()
        defer { condition.unlock() }
        return outputText
    }

    /// Waits until standard error contains `text` (the daemon logs "listening" once it serves).
    public func waitForError(containing text: String, timeout: TimeInterval = patience.timeInterval) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !errorText.contains(text) {
            if closedPipes == 2 { throw TestFailure("streamd exited without \"\(text)\"; stderr: \(errorText)") }
            if !condition.wait(until: deadline) { throw TestFailure("no \"\(text)\" within \(timeout) s; stderr: \(errorText)") }
        }
    }

    /// Waits for the process to exit (and its output to be read) and returns its status; a daemon
    /// still running after `timeout` seconds is killed (SIGKILL), so a test expecting an exit fails
    /// on the status rather than hanging.
    public func waitForExit(timeout: TimeInterval = 60) -> Int32 {
        let limit = Date(timeIntervalSinceNow: timeout)
        while process.isRunning, Date() < limit { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let status = process.waitForExitStatus()
        let deadline = Date(timeIntervalSinceNow: 5)
        condition.lock()
        while closedPipes < 2, condition.wait(until: deadline) {}
        condition.unlock()
        return status ?? -1
    }

    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitForExitStatus()
        }
    }

    /// A daemon started on `directory`'s socket and database, once it listens.
    public static func serving(
        _ directory: ShortTemporaryDirectory, extra: [String] = [], environment: [String: String] = [:]
    ) throws -> DaemonProcess {
        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", directory.database] + extra, environment: environment)
        try daemon.waitForError(containing: "listening")
        return daemon
    }
}

