import Testing
@testable import Reactive

@Suite struct FlattenOperatorTests {
    @Test func flattenRunsTheProducersAProducerSends() {
        let recorder = Recorder<Int, TestError>()
        SignalProducer<IntProducer, TestError>(values: IntProducer(values: 1, 2), IntProducer(value: 3))
            .flatten(.concat).start(recorder.observer)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
    }

    @Test func flatMapTurnsEachValueIntoAProducerAndFlattensIt() {
        let recorder = Recorder<String, TestError>()
        IntProducer(values: 1, 2, 3)
            .flatMap(.concat) { n in SignalProducer(Array(repeating: "\(n)", count: n)) }
            .start(recorder.observer)
        #expect(recorder.values == ["1", "2", "2", "3", "3", "3"])
        #expect(recorder.terminal == .completed)
    }

    @Test func flatMapOnASignalAcceptsATransformReturningSignals() {
        let (source, input) = Signal<Int, TestError>.pipe()
        let (inner, innerInput) = Signal<String, TestError>.pipe()
        let recorder = Recorder<String, TestError>()
        source.flatMap(.latest) { _ in inner }.observe(recorder.observer)
        input.send(value: 1)
        innerInput.send(value: "a")
        #expect(recorder.values == ["a"])
    }

    @Test func flatMapMergeTransformsEachValueThroughTheReturnedSignal() {
        let (source, input) = Signal<Int, TestError>.pipe()
        let tens = Signal<Int, TestError>.pipe(), twenties = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        source.flatMap(.merge) { value in value == 1 ? tens.output : twenties.output }.observe(recorder.observer)
        input.send(value: 1)
        tens.input.send(value: 10)
        input.send(value: 2)
        twenties.input.send(value: 20)
        tens.input.send(value: 11)
        input.sendCompleted()
        tens.input.sendCompleted()
        twenties.input.sendCompleted()
        #expect(recorder.events == [.value(10), .value(20), .value(11), .completed])
    }

    @Test func flatMapMergeKeepsEveryReturnedStreamSubscribed() {
        let outer = ProducerProbe<Int, TestError>()
        let first = IntProbe(), second = IntProbe()
        let recorder = Recorder<Int, TestError>()
        outer.producer.flatMap(.merge) { $0 == 1 ? first.producer : second.producer }.start(recorder.observer)
        outer.observer.send(value: 1)
        outer.observer.send(value: 2)
        first.observer.send(value: 10)
        second.observer.send(value: 20)
        first.observer.send(value: 11)
        #expect(recorder.values == [10, 20, 11])
        #expect(!first.hasEnded)
    }

    @Test func aProducerOfSignalsCanBeFlattened() {
        let (inner, innerInput) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        SignalProducer<Signal<Int, TestError>, TestError>(value: inner).flatten(.merge).start(recorder.observer)
        innerInput.send(value: 4)
        innerInput.sendCompleted()
        #expect(recorder.events == [.value(4), .completed])
    }

    @Test(arguments: [FlattenStrategy.merge, .concat, .concurrent(limit: 2), .latest, .race])
    func disposingAFlattenReleasesEverythingItHeld(strategy: FlattenStrategy) {
        weak var witness: Witness?
        do {
            let held = Witness()
            witness = held
            let inner = IntProducer { observer, lifetime in
                lifetime.observeEnded { withExtendedLifetime(held) {} }
                observer.send(value: 1)
            }
            let disposable = SignalProducer<IntProducer, TestError>(values: inner, inner)
                .concat(.never)
                .flatten(strategy)
                .start()
            disposable.dispose()
        }
        #expect(witness == nil)
    }

    @Test(arguments: [FlattenStrategy.merge, .concat, .latest, .race])
    func aCompletedFlattenReleasesEverythingItHeld(strategy: FlattenStrategy) {
        weak var witness: Witness?
        let recorder = Recorder<Int, TestError>()
        do {
            let held = Witness()
            witness = held
            let inner = IntProducer { observer, lifetime in
                lifetime.observeEnded { withExtendedLifetime(held) {} }
                observer.send(value: 1)
                observer.sendCompleted()
            }
            SignalProducer<IntProducer, TestError>(values: inner, inner).flatten(strategy).start(recorder.observer)
        }
        #expect(recorder.terminal == .completed)
        #expect(witness == nil)
    }
}
