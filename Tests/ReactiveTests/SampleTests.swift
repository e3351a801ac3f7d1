import Dispatch
import Synchronization
import Testing
@testable import Reactive

@Suite struct SampleOperatorTests {
    typealias Harness = BasicOperatorHarness

    @Test func sendsTheLatestValueWithTheSamplersValueEachTimeTheSamplerFires() {
        let sources = Harness.watchedSources(other: String.self) { $0.sample(with: $1).map { "\($0)\($1)" } }
        sources.otherInput.send(value: "a")
        sources.input.send(value: 1)
        sources.input.send(value: 2)
        sources.otherInput.send(value: "b")
        sources.otherInput.send(value: "c")
        sources.input.send(value: 3)
        sources.otherInput.send(value: "d")
        #expect(sources.recorder.values == ["2b", "2c", "3d"])
    }

    @Test func sampleOnSendsOnlyTheLatestValue() {
        let sources = Harness.watchedSources { $0.sample(on: $1) }
        sources.otherInput.send(value: ())
        sources.input.send(value: 1)
        sources.input.send(value: 2)
        sources.otherInput.send(value: ())
        sources.otherInput.send(value: ())
        #expect(sources.recorder.events == [.value(2), .value(2)])
    }

    @Test func completesOnlyOnceBothHaveCompleted() {
        let sources = Harness.watchedSources { $0.sample(on: $1) }
        sources.input.send(value: 1)
        sources.input.sendCompleted()
        #expect(sources.recorder.events.isEmpty)
        sources.otherInput.send(value: ())
        sources.otherInput.sendCompleted()
        #expect(sources.recorder.events == [.value(1), .completed])

        let samplerFirst = Harness.watchedSources { $0.sample(on: $1) }
        samplerFirst.otherInput.sendCompleted()
        #expect(samplerFirst.recorder.events.isEmpty)
        samplerFirst.input.sendCompleted()
        #expect(samplerFirst.recorder.events == [.completed])
    }

    @Test(arguments: [Event<Int, TestError>.failed(TestError(code: 9)), .interrupted])
    func aFailureOrInterruptionOfTheSourceEndsTheResultAndReleasesBoth(terminal: Event<Int, TestError>) {
        let sources = Harness.watchedSources { $0.sample(on: $1) }
        sources.input.send(value: 1)
        sources.input.send(terminal)
        #expect(sources.recorder.events == [terminal])
        #expect(sources.otherReleased.value == 1)
    }

    @Test func anInterruptedSamplerInterruptsTheResultAndReleasesTheSource() {
        let sources = Harness.watchedSources { $0.sample(on: $1) }
        sources.otherInput.sendInterrupted()
        #expect(sources.recorder.events == [.interrupted])
        #expect(sources.released.value == 1)
    }

    @Test func sourceAndSamplerMaySendFromDifferentThreads() {
        let (source, sourceInput) = Signal<Int, Never>.pipe()
        let (sampler, samplerInput) = Signal<(), Never>.pipe()
        let inFlight = Atomic<Bool>(false)
        let overlapped = Atomic<Bool>(false)
        let samples = Counter()
        source.sample(on: sampler).observeValues { _ in
            if inFlight.exchange(true, ordering: .acquiringAndReleasing) { overlapped.store(true, ordering: .relaxed) }
            samples.increment()
            inFlight.store(false, ordering: .releasing)
        }
        sourceInput.send(value: 0)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            for value in 1...2_000 {
                if index == 0 { sourceInput.send(value: value) } else { samplerInput.send(value: ()) }
            }
        }
        #expect(samples.value == 2_000)
        let didOverlap = overlapped.load(ordering: .relaxed)
        #expect(!didOverlap)
    }

    @Test func aProducerStartsItselfBeforeTheSampler() {
        let recorder = Recorder<Int, TestError>()
        Harness.countingProducer(upTo: 3).producer.sample(on: SignalProducer(value: ())).start(recorder.observer)
        #expect(recorder.events == [.value(3), .completed])

        let pairs = Recorder<String, TestError>()
        Harness.countingProducer(upTo: 2).producer.sample(with: SignalProducer(["x", "y"])).map { "\($0)\($1)" }
            .start(pairs.observer)
        #expect(pairs.events == [.value("2x"), .value("2y"), .completed])
    }

    @Test func aProducerSamplesOnASignal() {
        let (sampler, samplerInput) = Signal<Int, Never>.pipe()
        let recorder = Recorder<String, TestError>()
        let values = Recorder<Int, TestError>()
        Harness.countingProducer(upTo: 2).producer.sample(with: sampler).map { "\($0)\($1)" }.start(recorder.observer)
        Harness.countingProducer(upTo: 4).producer.sample(on: sampler.map { _ in }).start(values.observer)
        samplerInput.send(value: 7)
        samplerInput.sendCompleted()
        #expect(recorder.events == [.value("27"), .completed])
        #expect(values.events == [.value(4), .completed])
    }
}
