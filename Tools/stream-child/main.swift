// stream-child: a second process for the end-to-end tests, speaking to streamd through StreamClient.
//
//   stream-child publish SOCKET STREAM N          publishes N events ("STREAM-1" … as JSON strings),
//                                                 one at a time; prints "SEQUENCE TIMESTAMP" per ack
//   stream-child subscribe SOCKET STREAM FROM COUNT
//                                                 subscribes from sequence FROM; prints
//                                                 "SEQUENCE TIMESTAMP PAYLOAD" per event until COUNT
//   stream-child hold SOCKET STREAM COUNT        reads the first event through `events(in:)`, prints
//                                                 "holding", waits for a line on stdin, then reads the
//                                                 rest; prints "received COUNT"
//   stream-child consume SOCKET STREAM CONSUMER ACKS
//                                                 attaches to the durable consumer with a credit of 8;
//                                                 acknowledges the first ACKS deliveries, printing
//                                                 "acked SEQUENCE" once each is stored, and holds every
//                                                 later one unacknowledged, printing "held SEQUENCE";
//                                                 runs until killed
//
// Exit status: 0 done, 64 bad usage, 1 failure (the reason on stderr).
import Foundation
import StreamClient

let usage = """
    usage: stream-child publish SOCKET STREAM N
           stream-child subscribe SOCKET STREAM FROM COUNT
           stream-child hold SOCKET STREAM COUNT
           stream-child consume SOCKET STREAM CONSUMER ACKS
    """

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("stream-child: \(message)\n".utf8))
    exit(status)
}

func number(_ text: String, _ what: String) -> Int {
    guard let value = Int(text), value >= 0 else { fail("\(what) must be a whole number, not \"\(text)\"\n\(usage)", status: 64) }
    return value
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "publish" where arguments.count == 4:
        let count = number(arguments[3], "N")
        let connection = try await StreamConnection.connect(socketPath: arguments[1], clientName: "stream-child")
        var lines = ""
        for index in stride(from: 1, through: count, by: 1) {
            let published = try await connection.append(Array("\"\(arguments[2])-\(index)\"".utf8), to: arguments[2])
            lines += "\(published.sequence) \(published.timestamp)\n"
        }
        print(lines, terminator: "")
        connection.close()
    case "subscribe" where arguments.count == 5:
        let from = UInt64(number(arguments[3], "FROM"))
        let count = number(arguments[4], "COUNT")
        let connection = try await StreamConnection.connect(socketPath: arguments[1], clientName: "stream-child")
        var received = 0
        if count > 0 {
            for try await event in connection.events(in: arguments[2], from: .from(sequence: from)) {
                print("\(event.sequence) \(event.timestamp) \(String(decoding: event.payload, as: UTF8.self))")
                received += 1
                if received == count { break }
            }
        }
        guard received == count else { fail("the subscription ended after \(received) of \(count) events") }
        connection.close()
    case "hold" where arguments.count == 4:
        let count = number(arguments[3], "COUNT")
        let connection = try await StreamConnection.connect(socketPath: arguments[1], clientName: "stream-child")
        var received = 0
        for try await event in connection.events(in: arguments[2], from: .all) {
            received += 1
            guard event.sequence == UInt64(received) else { fail("event \(event.sequence) arrived as number \(received)") }
            if received == 1 {
                // Unbuffered, so the test sees it while this process waits.
                FileHandle.standardOutput.write(Data("holding\n".utf8))
                _ = readLine()
            }
            if received == count { break }
        }
        guard received == count else { fail("the subscription ended after \(received) of \(count) events") }
        print("received \(received)")
        connection.close()
    case "consume" where arguments.count == 5:
        let acks = number(arguments[4], "ACKS")
        let connection = try await StreamConnection.connect(socketPath: arguments[1], clientName: "stream-child")
        var acked = 0
        for try await delivery in connection.consumer(arguments[3], on: arguments[2], credit: 8).values {
            // Unbuffered, so the test sees each line at once.
            if acked < acks {
                try await delivery.ackSync()
                acked += 1
                FileHandle.standardOutput.write(Data("acked \(delivery.sequence)\n".utf8))
            } else {
                FileHandle.standardOutput.write(Data("held \(delivery.sequence)\n".utf8))
            }
        }
        fail("the consumer's deliveries ended")
    default:
        fail(usage, status: 64)
    }
} catch {
    fail("\(error)")
}
