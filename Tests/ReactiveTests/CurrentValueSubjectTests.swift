import Testing
@testable import Reactive

@Suite struct CurrentValueSubjectTests {
    @Test func aNewObserverReceivesTheCurrentValueThenTheChanges() {
        let subject = CurrentValueSubject<Int, TestError>(1)
        subject.value = 2
        let recorder = Recorder<Int, TestError>()
        subject.observe(recorder.observer)
        subject.send(value: 3)
        #expect(recorder.values == [2, 3])
        #expect(subject.value == 3)
    }

    @Test func changesLeaveOutTheCurrentValue() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let recorder = Recorder<Int, Never>()
        subject.changes.observe(recorder.observer)
        subject.value = 2
        subject.sendCompleted()
        #expect(recorder.events == [.value(2), .completed])
    }

    @Test func modifyChangesTheValueInPlaceAndSendsIt() {
        let subject = CurrentValueSubject<[Int], Never>([1])
        let recorder = Recorder<[Int], Never>()
        subject.changes.observe(recorder.observer)
        let count = subject.modify { values in
            values.append(2)
            return values.count
        }
        #expect(count == 2)
        #expect(recorder.values == [[1, 2]])
    }

    @Test func afterATerminalEventTheValueStaysAndALateObserverGetsItThenTheEvent() {
        let subject = CurrentValueSubject<Int, TestError>(1)
        subject.send(error: TestError(code: 4))
        subject.value = 2
        subject.modify { $0 = 3 }
        let late = Recorder<Int, TestError>()
        subject.observe(late.observer)
        #expect(subject.value == 1)
        #expect(late.events == [.value(1), .failed(TestError(code: 4))])
    }

    @Test func interruptionAndCompletionReachObserversOfBothSignals() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let all = Recorder<Int, Never>()
        let changes = Recorder<Int, Never>()
        subject.observe(all.observer)
        subject.changes.observe(changes.observer)
        subject.sendInterrupted()
        #expect(all.events == [.value(0), .interrupted])
        #expect(changes.events == [.interrupted])
    }

    @Test func itsProducerStartsWithTheCurrentValue() {
        let subject = CurrentValueSubject<String, Never>("now")
        let recorder = Recorder<String, Never>()
        subject.producer.start(recorder.observer)
        #expect(recorder.values == ["now"])
    }
}
