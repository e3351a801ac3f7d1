import StreamdTestSupport
import Testing
@testable import EventLog

/// Random appends, truncations, policy changes, deletions and reopenings, with the catalog row left
/// behind the blocks most of the time: after each step every load of a stream must agree with the
/// appends made (positions), with its blocks (stored bytes), and with what reads deliver.
@Suite struct UnsavedTailModelTests {
    private struct Model {
        var last: [String: UInt64] = [:]
    }

    private func check(_ log: EventLog, _ model: Model, step: Int, _ what: String) throws {
        for (name, last) in model.last {
            let info = try #require(try log.streamInfo(name), "step \(step) \(what): \(name) is gone")
            #expect(info.lastSequence == last, "step \(step) \(what): \(name) last")
            #expect(info.storedBytes == Int64(try log.storageFigures(of: name).storedBytes), "step \(step) \(what): \(name) bytes")
            let events = try log.readAll(name, from: .all)
            let retained = info.firstSequence <= info.lastSequence ? info.lastSequence - info.firstSequence + 1 : 0
            #expect(UInt64(events.count) == retained, "step \(step) \(what): \(name) \(info.firstSequence)...\(info.lastSequence) read \(events.count)")
            #expect(events.first.map { $0.sequence == info.firstSequence } ?? true, "step \(step) \(what): \(name) first")
            expectContiguous(events, from: info.firstSequence)
            for pair in zip(events, events.dropFirst()) where pair.1.timestamp < pair.0.timestamp {
                Issue.record("step \(step) \(what): \(name) timestamps go back at \(pair.1.sequence)")
                break
            }
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomOperationsKeepEveryLoadInStepWithTheBlocks(seed: UInt64) throws {
        let dir = TemporaryDirectory()
        let clock = ManualClock()
        var base = EventLogOptions()
        base.maximumEventsPerBlock = 4
        let options = clock.options(base)
        var random = SeededGenerator(seed: seed)
        var log = try EventLog(path: dir.file(), options: options)
        var model = Model()
        let names = ["a", "b", "c"]
        let policies = [
            StreamPolicy(), StreamPolicy(capacity: .last(300)), StreamPolicy(maxAge: .seconds(5)),
            StreamPolicy(maxBytes: 20_000), StreamPolicy(capacity: .last(1_000), maxAge: .seconds(20), maxBytes: 50_000),
        ]
        for name in names {
            try log.createStream(name)
            model.last[name] = 0
        }
        var counter = 0
        for step in 0..<250 {
            let name = names.randomElement(using: &random)!
            let last = model.last[name]!
            let what: String
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<45:
                what = "append one"
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    counter += 1
                    _ = try log.append(samplePayload(counter), to: name)
                    model.last[name]! += 1
                }
            case 45..<60:
                let count = Int.random(in: 32...700, using: &random)
                what = "append \(count)"
                counter += count
                _ = try log.append(contentsOf: (0..<count).map { samplePayload(counter + $0) }, to: name)
                model.last[name]! += UInt64(count)
            case 60..<66:
                let sequence = UInt64.random(in: 0...(last + 10), using: &random)
                what = "truncate before \(sequence)"
                _ = try log.truncate(name, before: sequence)
            case 66..<70:
                let count = UInt64.random(in: 0...(last + 2), using: &random)
                what = "keep last \(count)"
                _ = try log.truncate(name, keepingLast: count)
            case 70..<74:
                let time = clock.now - Int64.random(in: -1_000_000...30_000_000, using: &random)
                what = "truncate older than \(time)"
                _ = try log.truncate(name, olderThan: time)
            case 74..<80:
                let policy = policies.randomElement(using: &random)!
                what = "policy \(policy)"
                _ = try log.updatePolicy(of: name, to: policy)
            case 80..<84:
                what = "enforce retention"
                try log.enforceRetention()
            case 84..<87:
                what = "delete and create"
                try log.deleteStream(name)
                try log.createStream(name, policy: policies.randomElement(using: &random)!)
                model.last[name] = 0
            case 87..<91:
                what = "reopen"
                let before = try names.map { try log.streamInfo($0) }
                log.close()
                log = try EventLog(path: dir.file(), options: options)
                #expect(try names.map { try log.streamInfo($0) } == before, "step \(step): reopening changed streamInfo")
            case 91..<95:
                what = "append through a second log"
                let other = try EventLog(path: dir.file(), options: options)
                counter += 1
                _ = try other.append(samplePayload(counter), to: name)
                other.close()
                model.last[name]! += 1
            default:
                let delta = Int64.random(in: -2_000_000...3_000_000, using: &random)
                what = "clock \(delta)"
                clock.advance(by: delta)
            }
            clock.advance(by: Int64.random(in: 0...200_000, using: &random))
            try check(log, model, step: step, what)
            if step % 25 == 0 {
                let report = try log.verify()
                #expect(report.isClean, "step \(step) \(what): \(report.problems)")
            }
        }
        let report = try log.verify()
        #expect(report.isClean, "\(report.problems)")
    }
}
