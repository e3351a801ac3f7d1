import Dispatch
import Foundation
import Testing
@testable import Reactive

@Suite struct ZipOperatorTests {
    @Test func pairsTheValuesOfBothSidesInOrder() {
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<String, TestError>.pipe()
        let recorder = Recorder<String, TestError>()
        Signal.zip(a, b).map { "\($0)\($1)" }.observe(recorder.observer)
        aInput.send(value: 1)
        aInput.send(value: 2)
        aInput.send(value: 3)
        bInput.send(value: "a")
        #expect(recorder.values == ["1a"])
        bInput.send(value: "b")
        bInput.send(value: "c")
        bInput.send(value: "d")
        #expect(recorder.values == ["1a", "2b", "3c"])
    }

    @Test func completesWhenACompletedSideHasNoValueLeftWaiting() {
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<[Int], TestError>()
        a.zip(with: b).map { [$0, $1] }.observe(recorder.observer)
        aInput.send(value: 1)
        aInput.send(value: 2)
        aInput.sendCompleted()
        #expect(recorder.terminal == nil)
        bInput.send(value: 10)
        #expect(recorder.terminal == nil)
        bInput.send(value: 20)
        #expect(recorder.events == [.value([1, 10]), .value([2, 20]), .completed])
    }

    @Test func completesAtOnceWhenASideCompletesWithNothingWaiting() {
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<[Int], TestError>()
        a.zip(with: b).map { [$0, $1] }.observe(recorder.observer)
        bInput.send(value: 5)
        aInput.send(value: 1)
        bInput.send(value: 6)
        // The 6 waiting on the other side can never be paired now.
        aInput.sendCompleted()
        #expect(recorder.events == [.value([1, 5]), .completed])
    }

    @Test func failsOrIsInterruptedAsSoonAsOneSideIs() {
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<Int, TestError>.pipe()
        let failed = Recorder<[Int], TestError>()
        a.zip(with: b).map { [$0, $1] }.observe(failed.observer)
        aInput.send(value: 1)
        bInput.send(error: TestError(code: 4))
        #expect(failed.events == [.failed(TestError(code: 4))])

        let (c, cInput) = Signal<Int, TestError>.pipe()
        let interrupted = Recorder<[Int], TestError>()
        Signal.zip([c, Signal<Int, TestError>.never]).observe(interrupted.observer)
        cInput.sendInterrupted()
        #expect(interrupted.events == [.interrupted])
    }

    @Test func anArrayOfProducersZipsIntoArrays() {
        let recorder = Recorder<[Int], TestError>()
        SignalProducer.zip([IntProducer(values: 1, 2, 3), IntProducer(values: 10, 20), IntProducer(values: 100, 200)])
            .start(recorder.observer)
        #expect(recorder.events == [.value([1, 10, 100]), .value([2, 20, 200]), .completed])
    }

    @Test func anEmptyArrayCompletesAtOnce() {
        let recorder = Recorder<[Int], TestError>()
        SignalProducer<[Int], TestError>.zip([IntProducer]()).start(recorder.observer)
        #expect(recorder.events == [.completed])
    }

    @Test func upToSixSourcesZipIntoFlatTuples() {
        let recorder = Recorder<[Int], TestError>()
        let p = { (n: Int) in IntProducer(values: n, n * 10) }
        SignalProducer.zip(p(1), p(2), p(3)).map { [$0, $1, $2] }.start(recorder.observer)
        SignalProducer.zip(p(1), p(2), p(3), p(4), p(5), p(6)).map { [$0, $1, $2, $3, $4, $5] }
            .start(recorder.observer)
        #expect(recorder.values == [
            [1, 2, 3], [10, 20, 30], [1, 2, 3, 4, 5, 6], [10, 20, 30, 40, 50, 60],
        ])
    }

    @Test func disposingTheZipEndsBothProducers() {
        let a = IntProbe(), b = IntProbe()
        let recorder = Recorder<(Int, Int), TestError>()
        let disposable = SignalProducer.zip(a.producer, b.producer).start(recorder.observer)
        disposable.dispose()
        #expect(a.hasEnded && b.hasEnded)
        #expect(recorder.events.count == 1)
    }

    @Test func sidesSendingFromTwoThreadsAtOnceArePairedInOrder() {
        let a = Signal<Int, TestError>.pipe(), b = Signal<Int, TestError>.pipe()
        let recorder = Recorder<[Int], TestError>()
        Signal.zip(a.output, b.output).map { [$0, $1] }.observe(recorder.observer)
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            let input = side == 0 ? a.input : b.input
            for value in 0..<2_000 { input.send(value: value) }
            input.sendCompleted()
        }
        #expect(recorder.values == (0..<2_000).map { [$0, $0] })
        #expect(recorder.terminal == .completed)
    }
}

@Suite struct CombiningStackTests {
    /// Runs `body` on a thread with a 512 KiB stack (a secondary thread's default on Darwin), so a
    /// recursion per producer would overflow it.
    private func onSmallStack(_ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        return done.wait(timeout: .now() + 30) == .success
    }

    @Test func zippingThousandsOfProducersDoesNotGrowTheStackPerProducer() {
        let count = Counter()
        let finished = onSmallStack {
            SignalProducer.zip(Array(repeating: SignalProducer<Int, Never>(value: 1), count: 5_000))
                .startWithValues { count.increment(); #expect($0.count == 5_000) }
        }
        #expect(finished && count.value == 1)
    }

    @Test func combiningThousandsOfProducersDoesNotGrowTheStackPerProducer() {
        let count = Counter()
        let finished = onSmallStack {
            SignalProducer.combineLatest(Array(repeating: SignalProducer<Int, Never>(value: 1), count: 5_000))
                .startWithValues { count.increment(); #expect($0.count == 5_000) }
        }
        #expect(finished && count.value == 1)
    }
}
