import Synchronization

/// The disposable a producer start returns: it interrupts the start, by default by sending
/// `interrupted` into the start's own signal.
///
/// An operator whose start only transforms another start's signal (every `lift`, `start(on:)`)
/// forwards the interruption to that upstream start while it runs. Disposing then interrupts the
/// innermost running start, and `interrupted` travels down through every operator in between, so an
/// asynchronous operator (`observe(on:)`, `delay`, `throttle`, `debounce`) delivers it on its
/// scheduler after the events it already scheduled, as ReactiveSwift does since 2.0.
///
/// Once the upstream start has ended (a flatten whose outer producer completed while inner ones run,
/// say), nothing upstream can carry the interruption, so it is sent into this start's signal at once;
/// likewise when the upstream ends with anything but an interruption after disposal was asked for.
///
/// Thread-safety: `dispose()`, `forward(to:)` and the upstream's termination may race
/// from any thread; the decision between interrupting upstream and interrupting this start's own
/// signal is taken under one lock, so exactly one of them happens and the start is always interrupted.
final class StartInterrupter: Disposable {
    private struct State {
        var upstream: (any Disposable)?
        var isUpstreamEnded = false
        var isDisposed = false
    }

    private enum Target {
        case none
        case own
        case upstream(any Disposable)
    }

    private let interruptOwnSignal: @Sendable () -> Void
    private let observeOwnEnd: @Sendable (_ action: @escaping @Sendable (_ interrupted: Bool) -> Void) -> Void
    private let state = Mutex(State())

    /// An interrupter that sends `interrupted` into its own start's signal through `interruptOwnSignal`.
    ///
    /// - Parameter observeOwnEnd: registers an action run when that signal ends, told whether it ended
    ///   by interruption; it must not keep the signal observed.
    init(
        interrupt interruptOwnSignal: @escaping @Sendable () -> Void,
        observeOwnEnd: @escaping @Sendable (_ action: @escaping @Sendable (_ interrupted: Bool) -> Void) -> Void
    ) {
        self.interruptOwnSignal = interruptOwnSignal
        self.observeOwnEnd = observeOwnEnd
    }

    var isDisposed: Bool { state.withLock { $0.isDisposed } }

    func dispose() {
        let target = state.withLock { state -> Target in
            guard !state.isDisposed else { return .none }
            state.isDisposed = true
            guard let upstream = state.upstream, !state.isUpstreamEnded else { return .own }
            return .upstream(upstream)
        }
        switch target {
        case .none: return
        case .own: interruptOwnSignal()
        case let .upstream(upstream): upstream.dispose()
        }
    }

    /// From now on, disposing interrupts `upstream`, the start whose signal this start's signal is made
    /// from, for as long as that start runs. Watching its end does not keep its signal observed, so an
    /// operator that stops observing early still releases it.
    func forward(to upstream: any Disposable) {
        let alreadyDisposed = state.withLock { state -> Bool in
            if !state.isDisposed { state.upstream = upstream }
            return state.isDisposed
        }
        if alreadyDisposed { return upstream.dispose() }
        (upstream as? StartInterrupter)?.observeOwnEnd { [self] interrupted in
            upstreamEnded(interrupted: interrupted)
        }
    }

    /// The upstream start has ended: a later disposal interrupts this start's own signal, and a disposal
    /// whose interruption lost the race to another terminal event does so now. An upstream interrupted
    /// after disposal carries the interruption down itself.
    private func upstreamEnded(interrupted: Bool) {
        let mustInterrupt = state.withLock { state -> Bool in
            state.isUpstreamEnded = true
            return state.isDisposed && !interrupted
        }
        if mustInterrupt { interruptOwnSignal() }
    }
}
