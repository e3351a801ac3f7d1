// streambench: measures streamd on this machine and prints `peer=streamd metric=... value=... unit=...`.
// Usage: streambench --log [--events N] [--runs R] [--big N] [--dir DIR]   (build with -c release)
import Dispatch
import EventLog
import Foundation

struct Arguments {
    var log = false
    var events = 1_000_000
    var runs = 3
    var bigEvents = 10_000_000
    var directory = NSTemporaryDirectory() + "streambench-\(getpid())"

    init(_ list: [String]) {
        var iterator = list.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--log": log = true
            case "--events": events = Int(iterator.next() ?? "") ?? events
            case "--runs": runs = Int(iterator.next() ?? "") ?? runs
            case "--big": bigEvents = Int(iterator.next() ?? "") ?? bigEvents
            case "--dir": directory = iterator.next() ?? directory
            default:
                FileHandle.standardError.write(Data("unknown argument \(argument)\nusage: streambench --log [--events N] [--runs R] [--big N] [--dir DIR]\n".utf8))
                exit(64)
            }
        }
    }
}

let arguments = Arguments(CommandLine.arguments)
guard arguments.log else {
    FileHandle.standardError.write(Data("usage: streambench --log [--events N] [--runs R] [--big N] [--dir DIR]\n".utf8))
    exit(64)
}
try? FileManager.default.createDirectory(atPath: arguments.directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: arguments.directory) }

do {
    try LogBenchmark(arguments).run()
} catch {
    FileHandle.standardError.write(Data("streambench failed: \(error)\n".utf8))
    exit(1)
}
