import Foundation
import Testing
import Reactive

/// The README's "reactive core in one screen", verbatim but for `print`, which records here: if the
/// README's code stops compiling or doing what it says, this test fails.
@Suite struct ReadmeExampleTests {
    @Test func theReadmeExampleRunsAsItSays() {
        let printed = Recorder<String, Never>()
        let print: @Sendable (Any...) -> Void = { items in
            printed.observer.send(value: items.map { "\($0)" }.joined(separator: " "))
        }

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
        #expect(printed.values == ["RESPONSE", "click 1", "203.0", "late: response", "click 2", "settled 2"])
    }

    @Test func theReadmeShowsExactlyTheCodeThisTestRuns() throws {
        let testFile = URL(fileURLWithPath: #filePath)
        let root = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "```swift\n").dropFirst().first?
            .components(separatedBy: "```").first)
        let source = try String(contentsOf: testFile, encoding: .utf8)
        var remaining = source[...]
        for line in block.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) })
        where !line.isEmpty && line != "import Reactive" {
            let found = try #require(remaining.range(of: line), "README line not in the test, in order: \(line)")
            remaining = remaining[found.upperBound...]
        }
    }
}
