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
    private var exited = false
    private let input: FileHandle
    /// The reading ends, kept so they stay open while their handlers read.
    private let readers: [FileHandle]

    /// Starts the built executable `name` with `arguments`.
    public init(_ name: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: DaemonProcess.builtExecutable(named: name))
        process.arguments = arguments
        // Close-on-exec from the moment they exist: a process another test spawns meanwhile must not
        // inherit these pipes, or it would hold them open and their end of file would wait for it.
        let (inputRead, inputWrite) = try CloseOnExecPipe.make()
        let (outputRead, outputWrite) = try CloseOnExecPipe.make()
        let (errorRead, errorWrite) = try CloseOnExecPipe.make()
        input = inputWrite
        readers = [outputRead, errorRead]
        process.standardInput = inputRead
        process.standardOutput = outputWrite
        process.standardError = errorWrite
        for (handle, isError) in [(outputRead, false), (errorRead, true)] {
            handle.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                if data.isEmpty { handle.readabilityHandler = nil }
                self?.collect(data, isError: isError)
            }
        }
        process.terminationHandler = { [weak self] _ in
            guard let self else { return }
            condition.lock()
            exited = true
            condition.broadcast()
            condition.unlock()
        }
        defer {
            // The child has its own copies now (or never started); ours would keep the pipes open.
            for handle in [inputRead, outputWrite, errorWrite] { try? handle.close() }
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
        input.write(Data((line + "\n").utf8))
    }

    /// Waits up to `timeout` until a line of standard output is `line`; throws if it exits first or time runs out.
    public func waitForOutput(line: String, timeout: TimeInterval = patience.timeInterval) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !output.split(separator: "\n").contains(Substring(line)) {
            if closedPipes == 2 { throw TestFailure("the child exited without printing \"\(line)\"; stderr: \(errors)") }
            if !condition.wait(until: deadline) { throw TestFailure("no \"\(line)\" within \(timeout) s; stderr: \(errors)") }
        }
    }

    /// Waits up to `timeout` for the process to exit and its output to be read; returns its status,
    /// and kills it and throws if it did not exit in time.
    ///
    /// Once the process has exited, its output is waited for until the end of file, but for 2 s at
    /// most: should another process hold the other end open, what the child wrote has arrived by then
    /// (callers check the output they expect).
    public func waitForExit(timeout: TimeInterval = patience.timeInterval) throws -> Int32 {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        while !exited, condition.wait(until: deadline) {}
        let running = !exited
        if exited {
            let drained = Date(timeIntervalSinceNow: 2)
            while closedPipes < 2, condition.wait(until: drained) {}
        }
        condition.unlock()
        if running {
            kill(process.processIdentifier, SIGKILL)
            process.waitForExitStatus()
            throw TestFailure(
                "\(process.executableURL?.lastPathComponent ?? "child") did not exit within \(timeout) s;"
                    + " \(outputLines.count) lines of output, the last \(outputLines.last ?? "none"); stderr: \(standardError)")
        }
        return process.waitForExitStatus() ?? -1
    }

    /// Runs `name` to its end and returns its standard output lines; throws unless it exits 0.
    public static func run(_ name: String, _ arguments: [String], timeout: TimeInterval = patience.timeInterval) throws -> [String] {
        let child = try ChildProcess(name, arguments)
        let status = try child.waitForExit(timeout: timeout)
        guard status == 0 else { throw TestFailure("\(name) \(arguments.joined(separator: " ")) exited \(status): \(child.standardError)") }
        return child.outputLines
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitForExitStatus()
        }
    }
}
