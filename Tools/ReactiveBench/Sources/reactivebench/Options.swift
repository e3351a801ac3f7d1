#if canImport(Glibc)
import Glibc
#endif

/// The command line of `reactivebench`.
struct Options {
    /// Events sent per timed run (the replay workload delivers this many values, 1000 per subscriber).
    var events = 5_000_000
    /// Timed runs per workload and library; the median is reported.
    var runs = 5
    /// Workloads to run, by metric name; all when empty.
    var only: Set<String> = []
    /// Whether to skip the allocation counts.
    var skipAllocations = false
    /// The one library to run, for profiling; both when nil (and only then are ratios printed).
    var peer: Bench.Peer?

    static let usage = """
        usage: reactivebench [--events N] [--runs R] [--only chain,fanout,replay] [--no-allocations]
                             [--peer reactive|opencombine]
          --events N        events per timed run (default 5000000)
          --runs R          timed runs per workload and library; the median is reported (default 5)
          --only LIST       comma-separated workloads to run: chain, fanout, replay (default: all)
          --no-allocations  skip the allocations-per-event counts
          --peer NAME       run only one library (for profiling with perf); no ratios are printed
        """

    /// Parses `arguments`; on bad usage prints why and the usage to stderr and exits with status 64.
    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--events":
                options.events = positiveInteger(after: argument, from: &remaining)
            case "--runs":
                options.runs = positiveInteger(after: argument, from: &remaining)
            case "--only":
                guard let list = remaining.popFirst() else { fail("--only needs a list of workloads") }
                let names = Set(list.split(separator: ",").map(String.init))
                let unknown = names.subtracting(Workload.names)
                guard unknown.isEmpty else {
                    fail("unknown workload \(unknown.sorted().joined(separator: ", ")); known: \(Workload.names.joined(separator: ", "))")
                }
                options.only = names
            case "--peer":
                guard let name = remaining.popFirst(), let peer = Bench.Peer(rawValue: name) else {
                    fail("--peer needs reactive or opencombine")
                }
                options.peer = peer
            case "--no-allocations":
                options.skipAllocations = true
            case "-h", "--help":
                print(usage)
                exit(0)
            default:
                fail("unknown argument '\(argument)'")
            }
        }
        return options
    }

    private static func positiveInteger(after flag: String, from remaining: inout ArraySlice<String>) -> Int {
        guard let text = remaining.popFirst() else { fail("\(flag) needs a number") }
        guard let number = Int(String(text.filter { $0 != "_" })), number > 0 else {
            fail("\(flag) needs a positive whole number, got '\(text)'")
        }
        return number
    }

    private static func fail(_ message: String) -> Never {
        printError("reactivebench: \(message)\n\(usage)")
        exit(64)
    }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
}
