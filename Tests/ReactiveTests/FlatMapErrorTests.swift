import Testing
@testable import Reactive

struct RecoveryError: Error, Equatable {}

@Suite struct FlatMapErrorOperatorTests {
    @Test func aFailureIsReplacedByTheRecoveryProducersEvents() {
        let recorder = Recorder<Int, RecoveryError>()
        IntProducer(values: 1, 2).concat(IntProducer(error: TestError(code: 7)))
            .flatMapError { error in SignalProducer(values: error.code, 8) }
            .start(recorder.observer)
        #expect(recorder.events == [.value(1), .value(2), .value(7), .value(8), .completed])
    }

    @Test func theRecoveryCanFailWithItsOwnErrorType() {
        let recorder = Recorder<Int, RecoveryError>()
        IntProducer(error: TestError()).flatMapError { _ in SignalProducer(error: RecoveryError()) }
            .start(recorder.observer)
        #expect(recorder.events == [.failed(RecoveryError())])
    }

    @Test func completionAndInterruptionPassThroughWithoutRecovery() {
        let recoveries = Counter()
        let completed = Recorder<Int, Never>()
        IntProducer(value: 1).flatMapError { _ in recoveries.increment(); return .empty }.start(completed.observer)
        #expect(completed.events == [.value(1), .completed])

        let (signal, input) = Signal<Int, TestError>.pipe()
        let interrupted = Recorder<Int, Never>()
        signal.flatMapError { _ in recoveries.increment(); return .empty }.observe(interrupted.observer)
        input.sendInterrupted()
        #expect(interrupted.events == [.interrupted])
        #expect(recoveries.value == 0)
    }

    @Test func catchIsRACsNameForFlatMapError() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<String, Never>()
        signal.map(String.init).catch { _ in SignalProducer(value: "recovered") }.observe(recorder.observer)
        input.send(value: 1)
        input.send(error: TestError())
        #expect(recorder.events == [.value("1"), .value("recovered"), .completed])
    }

    @Test func disposingTheResultEndsTheRecoveryProducer() {
        let recovery = ProducerProbe<Int, Never>()
        let recorder = Recorder<Int, Never>()
        let disposable = IntProducer(error: TestError()).catch { _ in recovery.producer }.start(recorder.observer)
        #expect(recovery.startCount == 1)
        disposable.dispose()
        #expect(recovery.hasEnded)
        #expect(recorder.events == [.interrupted])
    }
}
