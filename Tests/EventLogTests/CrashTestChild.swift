import Foundation

/// The `eventlog-crashtest` child process (see Tools/eventlog-crashtest), for tests that run it beside
/// the test process rather than only kill it.
enum CrashTestChild {
    /// Starts the child with `arguments`; returns it and the pipe it prints its acknowledgements to.
    static func start(_ arguments: [String]) throws -> (process: Process, output: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CrashSafetyTests.childPath)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, output)
    }
}
