import Foundation
import Testing
@testable import Reactive

@Suite struct MutablePropertyTests {
    @Test func itsProducerSendsTheCurrentValueThenEveryChange() {
        let property = MutableProperty(1)
        let recorder = Recorder<Int, Never>()
        property.producer.start(recorder.observer)
        property.value = 2
        property.value = 3
        #expect(recorder.values == [1, 2, 3])
    }

    @Test func itsSignalSendsOnlyTheChanges() {
        let property = MutableProperty("a")
        let recorder = Recorder<String, Never>()
        property.signal.observe(recorder.observer)
        property.value = "b"
        #expect(recorder.values == ["b"])
        #expect(property.value == "b")
    }

    @Test func modifyIsAtomicAcrossThreads() {
        let property = MutableProperty(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 { property.modify { $0 += 1 } }
        }
        #expect(property.value == 4000)
    }

    @Test func modifyReturnsWhatItsActionReturns() {
        let property = MutableProperty([3, 1, 2])
        let first = property.modify { values -> Int? in
            values.sort()
            return values.first
        }
        #expect(first == 1)
        #expect(property.value == [1, 2, 3])
    }

    @Test func deinitializingThePropertyCompletesItsSignalAndProducers() {
        var property: MutableProperty<Int>? = MutableProperty(1)
        let changes = Recorder<Int, Never>()
        let current = Recorder<Int, Never>()
        property!.signal.observe(changes.observer)
        property!.producer.start(current.observer)
        property!.value = 2
        property = nil
        #expect(changes.events == [.value(2), .completed])
        #expect(current.events == [.value(1), .value(2), .completed])
    }

    @Test func itsLifetimeEndsWhenItIsDeinitialized() {
        let ended = Counter()
        do {
            let property = MutableProperty(0)
            property.lifetime.observeEnded { ended.increment() }
            #expect(ended.value == 0)
        }
        #expect(ended.value == 1)
    }

    @Test func valuesSetFromSeveralThreadsArriveInTheOrderTheyWereStored() {
        // Each writer stores with `modify`, so the order of storage is the order of the stored counter;
        // the change signal must deliver exactly that sequence, 1, 2, 3, ... with no overtaking.
        let property = MutableProperty(0)
        let recorder = Recorder<Int, Never>()
        property.signal.observe(recorder.observer)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<300 { property.modify { $0 += 1 } }
        }
        let values = recorder.values
        #expect(values.count == 2400)
        #expect(values.indices.first { values[$0] != $0 + 1 } == nil, "first value out of order")
    }
}
