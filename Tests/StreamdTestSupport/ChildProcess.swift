import Foundation

/// A run of one of the package's built executables (say `stream-child`), its output collected as it arrives.
///
/// Thread-safety: Sendable in practice; the collected text is under a condition lock.
public final class ChildProcess: @unchecked Sendable {
    /// The running process.
    public let process = Process()
    private let condition = NSCondition()
    private var output = ""
    private var errors = ""
    private var closedPipes = 0
    private let inputPipe = Pipe()

    /// Starts the built executable `name` with `arguments`.
    public init(_ name: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: DaemonProcess.builtExecutable(named: name))
        process.arguments = arguments
        let outputPipe = Pipe(), errorPipe = Pipe()
        // Close-on-exec, so a daemon another test starts meanwhile does not hold these pipes open.
        for pipe in [outputPipe, errorPipe] {
            _ = fcntl(pipe.fileHandleForReading.fileDescriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(pipe.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        _ = fcntl(inputPipe.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        for (pipe, isError) in [(outputPipe, false), (errorPipe, true)] {
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                if data.isEmpty { handle.readabilityHandler = nil }
                self?.collect(data, isError: isError)
            }
        }
        try process.run()
    }

    private func collect(_ data: Data, isError: Bool) {
        condition.lock()
        defer { condition.unlock() }
        if data.isEmpty { closedPipes += 1 }
        if isError { errors += String(decoding: data, as: UTF8.self) } else { output += String(decoding: data, as: UTF8.self) }
        condition.broadcast()
    }

    /// Standard output so far, as lines.
    public var outputLines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return output.split(separator: "\n").map(String.init)
    }

    /// Standard error so far.
    public var standardError: String {
        condition.lock()
        defer { condition.unlock() }
        return errors
    }

    /// Writes `line` and a newline to the process's standard input.
    public func send(line: String) {
        inputPipe.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits up to `timeout` until a line of standard output is `line`; throws if it exits first or time runs out.
    public func waitForOutput(line: String, timeout: TimeInterval = 15) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !output.split(separator: "\n").contains(Substring(line)) {
            if closedPipes == 2 { throw TestFailure("the child exited without printing \"\(line)\"; stderr: \(errors)") }
            if !condition.wait(until: deadline) { throw TestFailure("no \"\(line)\" within \(timeout) s; stderr: \(errors)") }
        }
    }

    /// Waits up to `timeout` for the process to exit with its output read; returns its status, and
    /// kills it and throws if it did not exit in time.
    public func waitForExit(timeout: TimeInterval = 30) throws -> Int32 {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        while closedPipes < 2, condition.wait(until: deadline) {}
        let finished = closedPipes == 2
        condition.unlock()
        if !finished {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw TestFailure("\(process.executableURL?.lastPathComponent ?? "child") did not exit within \(timeout) s; stderr: \(standardError)")
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Runs `name` to its end and returns its standard output lines; throws unless it exits 0.
    public static func run(_ name: String, _ arguments: [String], timeout: TimeInterval = 30) throws -> [String] {
        let child = try ChildProcess(name, arguments)
        let status = try child.waitForExit(timeout: timeout)
        guard status == 0 else { throw TestFailure("\(name) \(arguments.joined(separator: " ")) exited \(status): \(child.standardError)") }
        return child.outputLines
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
