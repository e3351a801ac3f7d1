// readme-persistent: the README's persistent block ("The library in one screen") as a program of its
// own, run by EventLogTests.ReadmeProgramTests to show it prints what its comments say and exits at once.
//
//   readme-persistent DIRECTORY      opens DIRECTORY/app.sqlite, runs the block, exits
//
// Exit status: 0 done, 64 bad usage, 1 failure (the reason on stderr).
import Foundation
import EventLog

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: readme-persistent DIRECTORY\n".utf8))
    exit(64)
}
let directory = CommandLine.arguments[1]

do {
    // The README's block, verbatim from here.
    let log = try EventLog(path: directory + "/app.sqlite")      // creates the file and its schema
    let prices = try PersistentReplaySubject<Double>(
        log: log, stream: "prices", policy: StreamPolicy(capacity: .last(100)))
    try prices.append(101.5)                                     // returns once the commit is durable
    prices.producer.map { $0 * 2 }.startWithValues { print($0) } // replays 203.0, then live values

    // An expensive request that runs once: its results are kept for late subscribers and for the next
    // launch, which replays them instead of running the request again.
    let request = SignalProducer<String, Never>(value: "response")
    let shared = try request.replay(persistingTo: log, stream: "request")
    shared.startWithValues { print("late:", $0) }
} catch {
    FileHandle.standardError.write(Data("readme-persistent: \(error)\n".utf8))
    exit(1)
}
