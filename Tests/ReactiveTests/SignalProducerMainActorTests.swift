import Dispatch
import Testing
@testable import Reactive

@Suite struct SignalProducerMainActorTests {
    /// The README's example: a `@MainActor` model mutated from the callback, with no box. This file
    /// compiles only because the callback is `@MainActor`.
    @Test @MainActor func aMainActorModelIsUpdatedFromTheCallbackWithoutABox() async {
        let prices = SignalProducer<Double, Never>(values: 101.5, 102.25).start(on: QueueScheduler(label: "test.prices"))
        let model = PriceModel()
        prices.startWithValuesOnMainActor { model.last = $0 }
        #expect(await mainActorTurns(until: { model.last == 102.25 }))
    }

    @Test @MainActor func valuesSentFromAnotherThreadArriveOnTheMainActorInOrder() async {
        let (signal, input) = Signal<Double, TestError>.pipe()
        let model = PriceModel()
        SignalProducer(signal).startWithValuesOnMainActor { price in
            model.noteThread()
            model.history.append(price)
        }
        DispatchQueue.global().async {
            for price in 1...100 { input.send(value: Double(price)) }
        }
        #expect(await mainActorTurns(until: { model.history.count == 100 }))
        #expect(model.history == (1...100).map(Double.init))
        #expect(model.onMainThreadOnly)
    }

    @Test @MainActor func theTerminalEventArrivesOnTheMainActorAfterTheValues() async {
        let (signal, input) = Signal<Double, TestError>.pipe()
        let model = PriceModel()
        SignalProducer(signal).startOnMainActor(model.record)
        DispatchQueue.global().async {
            input.send(value: 1)
            input.send(value: 2)
            input.send(error: TestError(code: 7))
        }
        #expect(await mainActorTurns(until: { model.events.count == 3 }))
        #expect(model.events == [.value(1), .value(2), .failed(TestError(code: 7))])
        #expect(model.onMainThreadOnly)
    }

    @Test @MainActor func valuesSentSynchronouslyOnTheMainActorAreDeliveredBeforeStartReturns() async {
        _ = MainActorScheduler()
        #expect(await mainQueueRecognised())
        let model = PriceModel()
        SignalProducer<Double, TestError>(values: 1, 2, 3).startOnMainActor(model.record)
        #expect(model.events == [.value(1), .value(2), .value(3), .completed])
        #expect(model.onMainThreadOnly)
    }

    @Test @MainActor func disposingFromAnotherThreadDeliversTheInterruptionOnTheMainActor() async {
        let model = PriceModel()
        let started = SignalProducer<Double, TestError>.never.startOnMainActor(model.record)
        DispatchQueue.global().sync { started.dispose() }
        #expect(model.events.isEmpty)
        #expect(await mainActorTurns(until: { model.events.count == 1 }))
        #expect(model.events == [.interrupted])
        #expect(model.onMainThreadOnly)
    }

    @Test @MainActor func disposingDropsTheValuesStillWaitingAndStopsDelivery() async {
        let (signal, input) = Signal<Double, TestError>.pipe()
        let model = PriceModel()
        let started = SignalProducer(signal).startOnMainActor(model.record)
        // Sent while this test holds the main actor: both values wait for its next turn.
        DispatchQueue.global().sync {
            input.send(value: 1)
            input.send(value: 2)
        }
        started.dispose()
        input.send(value: 3)
        #expect(await mainActorTurns(until: { model.events.count == 1 }))
        #expect(await nextMainQueueTurn())
        #expect(model.events == [.interrupted])
    }
}
