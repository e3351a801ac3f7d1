// persistence-child: the other process of the persistence tests. It uses the reactive bridge of the
// event log on the database at PATH, prints what it saw, one line each, and exits.
//   persistence-child publish PATH STREAM COUNT   publishes COUNT values through a persistent replay
//                                                 subject, then completes the stream
//   persistence-child replay PATH STREAM          runs an "expensive request" through
//                                                 replay(persistingTo:), printing "request ran" when the
//                                                 request runs, then each value and "completed"
import Dispatch
import EventLog
import Foundation
import Reactive

struct Reading: Codable, Sendable {
    var sensor: String
    var value: Int
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("persistence-child: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else { fail("usage: persistence-child publish|replay PATH STREAM [COUNT]") }
do {
    let log = try EventLog(path: arguments[2])
    switch arguments[1] {
    case "publish":
        let subject = try PersistentReplaySubject<Reading>(log: log, stream: arguments[3])
        for index in 0..<(Int(arguments[4]) ?? 0) { try subject.append(Reading(sensor: "s\(index % 3)", value: index)) }
        try subject.appendCompleted()
        print("published")
    case "replay":
        let request = SignalProducer<Reading, Never> { observer, _ in
            print("request ran")
            for value in 1...5 { observer.send(value: Reading(sensor: "remote", value: value)) }
            observer.sendCompleted()
        }
        let done = DispatchSemaphore(value: 0)
        try request.replay(persistingTo: log, stream: arguments[3]).start { event in
            switch event {
            case let .value(reading): print(reading.value)
            case .completed: print("completed")
            case let .failed(failure): print("failed: \(failure)")
            case .interrupted: print("interrupted")
            }
            if event.isTerminating { done.signal() }
        }
        guard done.wait(timeout: .now() + 30) == .success else { fail("the replay never ended") }
    default:
        fail("unknown mode \(arguments[1])")
    }
    log.close()
} catch {
    fail("\(error)")
}
