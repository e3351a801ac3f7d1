import Dispatch
import Testing
@testable import Reactive

@Suite struct SignalMainActorTests {
    @Test @MainActor func valuesSentFromAnotherThreadReachAMainActorModelInOrder() async {
        let (prices, input) = Signal<Double, TestError>.pipe()
        let model = PriceModel()
        prices.observeValuesOnMainActor { price in
            model.noteThread()
            model.last = price
            model.history.append(price)
        }
        DispatchQueue.global().async {
            for price in 1...100 { input.send(value: Double(price)) }
        }
        #expect(await mainActorTurns(until: { model.history.count == 100 }))
        #expect(model.history == (1...100).map(Double.init))
        #expect(model.last == 100)
        #expect(model.onMainThreadOnly)
    }

    @Test @MainActor func completionArrivesOnTheMainActorAfterTheValues() async {
        let (prices, input) = Signal<Double, TestError>.pipe()
        let model = PriceModel()
        prices.observeOnMainActor(model.record)
        DispatchQueue.global().async {
            input.send(value: 1)
            input.sendCompleted()
        }
        #expect(await mainActorTurns(until: { model.events.count == 2 }))
        #expect(model.events == [.value(1), .completed])
        #expect(model.onMainThreadOnly)
    }

    @Test @MainActor func anInterruptionSentFromAnotherThreadArrivesOnTheMainActor() async {
        let (prices, input) = Signal<Double, TestError>.pipe()
        let model = PriceModel()
        prices.observeOnMainActor(model.record)
        DispatchQueue.global().sync { input.sendInterrupted() }
        #expect(model.events.isEmpty)
        #expect(await mainActorTurns(until: { model.events.count == 1 }))
        #expect(model.events == [.interrupted])
        #expect(model.onMainThreadOnly)
    }

    @Test @MainActor func disposingDropsTheValuesStillWaitingAndStopsDelivery() async {
        let (prices, input) = Signal<Double, TestError>.pipe()
        let model = PriceModel()
        let observation = prices.observeOnMainActor(model.record)
        // Sent while this test holds the main actor: the value waits for its next turn.
        DispatchQueue.global().sync { input.send(value: 1) }
        observation.dispose()
        input.send(value: 2)
        input.sendCompleted()
        #expect(await nextMainQueueTurn())
        #expect(await nextMainQueueTurn())
        #expect(model.events.isEmpty)
    }
}
