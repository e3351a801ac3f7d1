import Foundation
import Synchronization

/// What a finished command printed and how it exited.
public struct CommandResult: Sendable, CustomStringConvertible {
    /// The exit status (or the signal number, for a command killed by a signal).
    public let status: Int32
    /// Standard output, as bytes.
    public let output: Data
    /// Standard error, as UTF-8 text.
    public let standardError: String

    /// Standard output, as UTF-8 text.
    public var standardOutput: String { String(decoding: output, as: UTF8.self) }

    /// The lines of standard output, without the last empty one.
    public var lines: [String] {
        var lines = standardOutput.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    public var description: String { "exit \(status)\n--- stdout:\n\(standardOutput)--- stderr:\n\(standardError)" }
}

/// Any built executable of the package as a child process: arguments, environment and standard input
/// given, standard output and error collected as they arrive.
///
/// `@unchecked Sendable` is safe because the collected text is touched only while `condition` is locked.
public final class ToolProcess: @unchecked Sendable {
    public let process = Process()
    private let condition = NSCondition()
    private var output = Data()
    private var errorText = ""
    private var closedPipes = 0

    /// Starts the package's executable `name` (see `DaemonProcess.builtExecutable(named:)`).
    ///
    /// - Parameters:
    ///   - environment: variables set over (or, with an empty value, removed from) the test's own.
    ///   - input: standard input; nil leaves it empty.
    public convenience init(_ name: String, _ arguments: [String], environment: [String: String] = [:], input: Data? = nil) throws {
        try self.init(path: DaemonProcess.builtExecutable(named: name), arguments, environment: environment, input: input)
    }

    /// Starts the executable at `path` (e.g. `/bin/sh`); see `init(_:_:environment:input:)`.
    public init(path: String, _ arguments: [String], environment: [String: String] = [:], input: Data? = nil) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value.isEmpty ? nil : value }
        process.environment = merged
        let (outputRead, outputWrite) = try CloseOnExecPipe.make()
        let (errorRead, errorWrite) = try CloseOnExecPipe.make()
        let (inputRead, inputWrite) = try CloseOnExecPipe.make()
        process.standardOutput = outputWrite
        process.standardError = errorWrite
        process.standardInput = inputRead
        defer {
            // The child has its own copies now (or never started); ours would keep the pipes open.
            for handle in [outputWrite, errorWrite, inputRead] { try? handle.close() }
        }
        try process.run()
        // Blocking reads on threads of their own: FileHandle's readabilityHandler on Linux sometimes
        // reports a pipe's end of file late, which made every fast-exiting command wait for a deadline.
        for (pipe, isError) in [(outputRead, false), (errorRead, true)] {
            let descriptor = pipe.fileDescriptor
            Thread.detachNewThread { [weak self] in
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { break }
                    self?.collect(Data(buffer[..<count]), error: isError)
                }
                self?.collect(Data(), error: isError)
                withExtendedLifetime(pipe) {}
            }
        }
        let writer = inputWrite
        let bytes = input ?? Data()
        _ = Self.brokenPipesAreErrors
        // On a thread of its own: a large input would fill the pipe before the child reads it.
        Thread.detachNewThread {
            try? writer.write(contentsOf: bytes)
            try? writer.close()
        }
    }

    /// A child that stops reading its input early closes the pipe under the thread writing it; the
    /// write must then fail, not end the whole test runner with SIGPIPE.
    private static let brokenPipesAreErrors: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

    private func collect(_ data: Data, error: Bool) {
        condition.lock()
        if data.isEmpty { closedPipes += 1 }
        if error { errorText += String(decoding: data, as: UTF8.self) } else { output.append(data) }
        condition.broadcast()
        condition.unlock()
    }

    /// Standard output so far, as text.
    public var standardOutput: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: output, as: UTF8.self)
    }

    /// Standard error so far, as text.
    public var standardError: String {
        condition.lock()
        defer { condition.unlock() }
        return errorText
    }

    /// Waits until standard output contains `text`.
    public func waitForOutput(containing text: String, timeout: TimeInterval = patience.timeInterval) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !String(decoding: output, as: UTF8.self).contains(text) {
            if closedPipes == 2 { throw TestFailure("the command exited without printing \"\(text)\"; stdout: \(String(decoding: output, as: UTF8.self)) stderr: \(errorText)") }
            if !condition.wait(until: deadline) { throw TestFailure("no \"\(text)\" on stdout within \(timeout) s; stdout: \(String(decoding: output, as: UTF8.self)) stderr: \(errorText)") }
        }
    }

    /// Waits for the exit (killing the process after `timeout` seconds) and returns what it printed.
    public func finish(timeout: TimeInterval = patience.timeInterval) -> CommandResult {
        let exited = DispatchSemaphore(value: 0)
        let process = self.process
        // The status as `waitForExitStatus` read it: Foundation may still call the process running
        // when a long-lived child spawned meanwhile (a daemon) inherited what tells it of the end.
        let status = Mutex<Int32?>(nil)
        Thread.detachNewThread {
            let ended = process.waitForExitStatus()
            status.withLock { $0 = ended }
            exited.signal()
        }
        let killed = exited.wait(timeout: .now() + timeout) == .timedOut
        if killed {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        let deadline = Date(timeIntervalSinceNow: 5)
        condition.lock()
        while closedPipes < 2, condition.wait(until: deadline) {}
        // Said on standard error, or a command cut short would read as one that failed by itself.
        let note = killed ? "\n[the test killed the command: it had not exited within \(timeout) s]\n" : ""
        let result = CommandResult(
            status: process.isRunning ? status.withLock { $0 } ?? -1 : process.terminationStatus, output: output, standardError: errorText + note)
        condition.unlock()
        return result
    }

    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitForExitStatus()
        }
    }

    /// Runs the executable at `path` to its end and returns what it printed.
    public static func run(
        path: String, _ arguments: [String], environment: [String: String] = [:], input: Data? = nil, timeout: TimeInterval = patience.timeInterval
    ) throws -> CommandResult {
        try ToolProcess(path: path, arguments, environment: environment, input: input).finish(timeout: timeout)
    }

    /// Runs the executable `name` to its end and returns what it printed.
    public static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:], input: Data? = nil, timeout: TimeInterval = patience.timeInterval
    ) throws -> CommandResult {
        try ToolProcess(name, arguments, environment: environment, input: input).finish(timeout: timeout)
    }
}
