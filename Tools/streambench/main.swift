// streambench: measures streamd on this machine and prints `peer=streamd metric=... value=... unit=...`.
// Build with -c release. Two modes:
//   streambench [--events N] [--payload P] [--runs R] [--durability normal|full] [--streamd PATH] [--db postgres://…]
//       the client workloads of ../shared/peers/run-peers.sh against a streamd it starts (N = 500000, P = 100),
//       on an SQLite file of its own or on the PostgreSQL database --db names (whose streamd tables each run
//       removes first), where it also measures publish-to-subscriber across two daemons ("across")
//   streambench --log [--events N] [--runs R] [--big N]
//       the event log alone, in process (N = 1000000)
//   streambench --soak [--seconds S] [--idle N] [--pace E] [--payload P] [--streamd PATH]
//       well-behaved clients beside hostile ones against a streamd it starts (S = 30, N = 2000, E = 100000)
import EventLog
import Foundation
import PostgresLog
import StreamProtocol

struct Arguments {
    static let usage = """
        usage: streambench [--version]
               streambench [--events N] [--payload P] [--runs R] [--durability normal|full] [--streamd PATH] [--only ping,rtt,publish,replay,many,group,latency,fanout,trickle,create,reclaim,across] [--metrics] [--dir DIR] [--db postgres://…]
               streambench --log [--events N] [--runs R] [--big N] [--dir DIR]
               streambench --soak [--seconds S] [--idle N] [--pace E] [--payload P] [--streamd PATH] [--dir DIR]
        """

    var log = false
    var soak = false
    /// How long the soak's attack lasts.
    var seconds = 30
    /// How many idle connections the soak's hostile clients try to hold.
    var idleConnections = 2_000
    /// The events a second the soak's pairs publish together in its paced phase.
    var pace = 100_000
    var events: Int
    var payload = 100
    var runs = 3
    var bigEvents = 10_000_000
    var durability = "normal"
    var streamd = Daemon.besideThisProgram
    /// The client workloads to run (all when empty): ping, rtt, publish, replay, many (16 publishers, one publish at a
    /// time each), group (4 members of one durable consumer), latency, fanout, trickle; create
    /// (100 000 streams in batches of 2 000) and reclaim (800 000 events, three streams removed) only when named.
    var only: Set<String> = []
    /// Whether the client workloads' daemon serves metrics (`--metrics 127.0.0.1:0`), to measure their cost.
    var metrics = false
    var directory = NSTemporaryDirectory() + "streambench-\(getpid())"
    /// The PostgreSQL database the client workloads' daemons serve (nil: an SQLite file per run).
    var database: PostgresAddress?

    init(_ list: [String]) {
        var events: Int?
        var iterator = list.dropFirst().makeIterator()
        func number() -> Int {
            guard let text = iterator.next(), let value = Int(text), value > 0 else { Self.fail("expected a positive number") }
            return value
        }
        while let argument = iterator.next() {
            switch argument {
            case "--version":
                print("streambench \(StreamdVersion.current)")
                exit(0)
            case "--log": log = true
            case "--soak": soak = true
            case "--seconds": seconds = number()
            case "--idle": idleConnections = number()
            case "--pace": pace = number()
            case "--events": events = number()
            case "--payload": payload = number()
            case "--runs": runs = number()
            case "--big": bigEvents = number()
            case "--durability": durability = iterator.next() ?? ""
            case "--streamd": streamd = iterator.next() ?? ""
            case "--only": only = Set((iterator.next() ?? "").split(separator: ",").map(String.init))
            case "--metrics": metrics = true
            case "--dir": directory = iterator.next() ?? directory
            case "--db":
                let url = iterator.next() ?? ""
                guard let address = try? PostgresAddress(url) else { Self.fail("--db takes a postgres:// URL; without it each run has an SQLite file of its own") }
                database = address
            default: Self.fail("unknown argument \(argument)")
            }
        }
        guard ["normal", "full"].contains(durability) else { Self.fail("--durability must be normal or full") }
        self.events = events ?? (log ? 1_000_000 : 500_000)
    }

    private static func fail(_ reason: String) -> Never {
        FileHandle.standardError.write(Data("streambench: \(reason)\n\(usage)\n".utf8))
        exit(64)
    }
}

let arguments = Arguments(CommandLine.arguments)
try? FileManager.default.createDirectory(atPath: arguments.directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: arguments.directory) }

do {
    if arguments.log {
        try LogBenchmark(arguments).run()
    } else if arguments.soak {
        try SoakBenchmark(arguments).run()
    } else {
        try ClientBenchmark(arguments).run()
    }
} catch {
    FileHandle.standardError.write(Data("streambench failed: \(error)\n".utf8))
    exit(1)
}
