// readme-remote: the README's "shared through streamd" block as a program of its own, run by
// StreamdEndToEndTests.ReadmeProgramTests against a real daemon to show it prints what its comments
// say and exits at once.
//
//   readme-remote [SOCKET]      connects to streamd at SOCKET (the default socket without it), runs the block
//
// Exit status: 0 done, 64 bad usage, 1 failure (the reason on stderr).
import Foundation
import StreamClient

guard CommandLine.arguments.count <= 2 else {
    FileHandle.standardError.write(Data("usage: readme-remote [SOCKET]\n".utf8))
    exit(64)
}
let socket: String? = CommandLine.arguments.count == 2 ? CommandLine.arguments[1] : nil

do {
    // The README's block, verbatim from here.
    let connection = try await StreamConnection.connect(socketPath: socket)  // nil: the default socket
    let prices = RemoteReplaySubject<Double>(
        connection: connection, stream: "prices", policy: StreamPolicy(capacity: .last(100)))
    try await prices.append(101.5)                               // returns once the daemon has stored it
    prices.producer.map { $0 * 2 }.startWithValues { print($0) } // replays 203.0, then live values
} catch {
    FileHandle.standardError.write(Data("readme-remote: \(error)\n".utf8))
    exit(1)
}
