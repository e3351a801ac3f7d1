import Foundation
import Synchronization
import Testing
import EventLog
import Reactive
import StreamdTestSupport

/// The README's code, verbatim but for `print`, which records here: if the README's code stops
/// compiling or doing what it says, these tests fail. `theReadmeShowsExactlyTheCodeTheseTestsRun`
/// checks that every line of each README block stands in this file, in order.
@Suite struct ReadmeExampleTests {
    /// Records what the examples print.
    final class Printed: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        var print: @Sendable (Any...) -> Void {
            { items in self.lines.withLock { $0.append(items.map { "\($0)" }.joined(separator: " ")) } }
        }
    }

    @Test func theReactiveExampleRunsAsItSays() {
        let printed = Printed()
        let print = printed.print

        // A cold producer: its work runs once per start; disposing a start cancels it.
        let request = SignalProducer<String, Never> { observer, lifetime in
            observer.send(value: "response")
            observer.sendCompleted()
        }
        request.map { $0.uppercased() }.startWithValues { print($0) }

        // A hot signal and its input.
        let (clicks, clickInput) = Signal<Int, Never>.pipe()
        clicks.filter { $0 > 0 }.observeValues { print("click", $0) }
        clickInput.send(value: 1)

        // Subjects: a replay subject keeps the last N values for late observers.
        let prices = ReplaySubject<Double, Never>(capacity: 100)
        prices.send(value: 101.5)
        prices.producer.map { $0 * 2 }.startWithValues { print($0) }   // replays 203.0, then live values

        // Multicast: run an expensive producer once, share its events.
        let shared = request.replay()            // connects at once; late starts get every value
        shared.startWithValues { print("late:", $0) }

        // Time in virtual time, for tests.
        let scheduler = TestScheduler()
        clicks.debounce(.milliseconds(300), on: scheduler).observeValues { print("settled", $0) }

        clickInput.send(value: 2)
        scheduler.advance(by: .milliseconds(300))
        #expect(printed.all == ["RESPONSE", "click 1", "203.0", "late: response", "click 2", "settled 2"])
    }

    @Test func theInProcessSubjectRunsAsItSays() {
        let printed = Printed()
        let print = printed.print

        let prices = ReplaySubject<Double, Never>(capacity: 100)       // keeps the last 100 values
        prices.send(value: 101.5)
        prices.producer.map { $0 * 2 }.startWithValues { print($0) }   // replays 203.0, then live values

        prices.send(value: 102)
        #expect(printed.all == ["203.0", "204.0"])
    }

    @Test func thePersistenceExampleRunsAsItSays() throws {
        let temporary = TemporaryDirectory()
        let directory = temporary.path
        let printed = Printed()
        let print = printed.print

        let log = try EventLog(path: directory + "/app.sqlite")      // creates the file and its schema

        // The replay subject of the previous screen, made persistent: values are appended durably, and every
        // new observer, in this process or the next one, gets the retained history, then the live values.
        let prices = try PersistentReplaySubject<Double>(
            log: log, stream: "prices", policy: StreamPolicy(capacity: .last(100)))
        try prices.append(101.5)                                     // returns once the commit is durable
        prices.producer.map { $0 * 2 }.startWithValues { print($0) } // replays 203.0, then live values

        // An expensive request that runs once: its results are kept for late subscribers and for the next
        // launch, which replays them instead of running the request again.
        let request = SignalProducer<String, Never>(value: "response")
        let shared = try request.replay(persistingTo: log, stream: "request")
        shared.startWithValues { print("late:", $0) }

        try prices.append(102)
        log.waitForObservers()
        #expect(printed.all == ["203.0", "late: response", "204.0"])
    }

    @Test func theEventLogExampleRunsAsItSays() throws {
        let temporary = TemporaryDirectory()
        let directory = temporary.path
        let printed = Printed()
        let print = printed.print

        let log = try EventLog(path: directory + "/events.sqlite")          // creates file and schema
        try log.ensureStream("orders", policy: StreamPolicy(capacity: .last(100_000), maxAge: .seconds(86_400)))
        let payload = Array(#"{"id":1,"amount":9.5}"#.utf8)
        let receipt = try log.append(payload, to: "orders")                 // returns after the commit
        try log.read("orders", from: .last(10)) { event in print(event.sequence); return true }
        let watch = log.observeAppends(to: "orders") { commit in /* live tail */ }
        print(try log.verify())

        #expect(receipt.sequence == 1)
        #expect(printed.all.first == "1")
        #expect(printed.all.count == 2)
        withExtendedLifetime(watch) {}
    }

    @Test(arguments: [
        "import Reactive\n\n// A cold producer", "import Reactive\n\nlet prices", "import EventLog\n\nlet log",
        "let log = try EventLog(path: directory + \"/events.sqlite\")",
    ])
    func theReadmeShowsExactlyTheCodeTheseTestsRun(blockStart: String) throws {
        let block = try #require(try ReadmeBlocks.swiftBlock(startingWith: blockStart), "no README block starts with \(blockStart)")
        let missing = ReadmeBlocks.missingLine(of: block, in: try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8))
        #expect(missing == nil, "README line not in the test, in order: \(missing ?? "")")
    }
}
