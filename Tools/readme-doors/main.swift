// readme-doors: the README's "one example, three doors" block as a program of its own, run by
// StreamdEndToEndTests.ReadmeDoorsProgramTests against a real daemon: the code written once prints
// 203.0 at each door, and the program exits right after.
//
//   readme-doors DIRECTORY SOCKET    keeps its log in DIRECTORY, connects to streamd at SOCKET
//
// Exit status: 0 done, 64 bad usage, 1 failure (the reason on stderr).
import EventLog
import Foundation
import StreamClient

guard CommandLine.arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: readme-doors DIRECTORY SOCKET\n".utf8))
    exit(64)
}
let directory = CommandLine.arguments[1]
let socket = CommandLine.arguments[2]

// The README's block, verbatim from here (the function is declared at the top level, as in a script).
/// Written once, for any door: each price doubled, the retained ones first, then the live ones.
func showDoubled(_ prices: some Subject<Double, some Error>) {
    prices.producer.map { $0 * 2 }.startWithValues { print($0) }
}

do {
    let policy = StreamPolicy(capacity: .last(100))           // one value for every door

    let inProcess = ReplaySubject<Double, Never>(capacity: policy.capacity)
    inProcess.send(value: 101.5)
    showDoubled(inProcess)                                    // 203.0

    let log = try EventLog(path: directory + "/app.sqlite")
    let persistent = try PersistentReplaySubject<Double>(log: log, stream: "prices", policy: policy)
    try persistent.append(101.5)
    showDoubled(persistent)                                   // 203.0

    let connection = try await StreamConnection.connect(socketPath: socket)
    let remote = RemoteReplaySubject<Double>(connection: connection, stream: "prices", policy: policy)
    try await remote.append(101.5)
    showDoubled(remote)                                       // 203.0
} catch {
    FileHandle.standardError.write(Data("readme-doors: \(error)\n".utf8))
    exit(1)
}
