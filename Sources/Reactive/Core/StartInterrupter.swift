import Synchronization

/// The disposable a producer start returns: it interrupts the start, by default by sending
/// `interrupted` into the start's own signal.
///
/// An operator whose start only transforms other starts' signals (every `lift`, unary or binary,
/// `start(on:)`, `combineLatest` and `zip` of many, `retry`, `repeat`) forwards the interruption to
/// those upstream starts while they run. Disposing then interrupts the innermost running starts, and
/// `interrupted` travels down through every operator in between, so an asynchronous operator
/// (`observe(on:)`, `delay`, `throttle`, `debounce`) delivers it on its scheduler after the events it
/// already scheduled, as ReactiveSwift's event-transforming operators do since 2.0. With several
/// upstreams, the first interruption to reach the operator ends the result.
///
/// Once no upstream start runs (a flatten whose outer producer completed while inner ones run, say),
/// nothing upstream can carry the interruption, so it is sent into this start's signal at once;
/// likewise when an upstream ends with anything but an interruption after disposal was asked for.
///
/// Thread-safety: `dispose()`, `forward(to:)`, `stopForwarding(_:)` and the upstreams' termination may
/// race from any thread; the decision between interrupting upstream and interrupting this start's own
/// signal is taken under one lock, so one of them always happens and the start is always interrupted.
final class StartInterrupter: Disposable {
    /// One upstream start this interrupter forwards to; see `stopForwarding(_:)`.
    struct Forwarding: Sendable {
        fileprivate let key: Int
    }

    private struct State {
        var running: [Int: any Disposable] = [:]
        var nextKey = 0
        var isDisposed = false
    }

    private enum Target {
        case none
        case own
        case upstreams([any Disposable])
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
            return state.running.isEmpty ? .own : .upstreams(Array(state.running.values))
        }
        switch target {
        case .none: return
        case .own: interruptOwnSignal()
        case let .upstreams(upstreams): for upstream in upstreams { upstream.dispose() }
        }
    }

    /// From now on, disposing interrupts `upstream`, a start whose signal this start's signal is made
    /// from, for as long as that start runs. Watching its end does not keep its signal observed, so an
    /// operator that stops observing early still releases it.
    ///
    /// - Returns: the forwarding, to stop it with `stopForwarding(_:)`; nil when this start was already
    ///   disposed, in which case `upstream` has just been disposed.
    @discardableResult
    func forward(to upstream: any Disposable) -> Forwarding? {
        let key = state.withLock { state -> Int? in
            guard !state.isDisposed else { return nil }
            let key = state.nextKey
            state.nextKey += 1
            state.running[key] = upstream
            return key
        }
        guard let key else {
            upstream.dispose()
            return nil
        }
        (upstream as? StartInterrupter)?.observeOwnEnd { [self] interrupted in
            upstreamEnded(key, interrupted: interrupted)
        }
        return Forwarding(key: key)
    }

    /// For an operator about to stop observing an upstream without ending (`bind` after `stop`): stops
    /// forwarding to it, unless disposal already went that way.
    ///
    /// - Returns: true when an interruption is on its way through that upstream (this start was disposed
    ///   first): the operator must then keep observing it and end with that interruption. False when
    ///   the operator may stop observing; a later disposal no longer counts on that upstream.
    func stopForwarding(_ forwarding: Forwarding?) -> Bool {
        guard let forwarding else { return true }
        return state.withLock { state -> Bool in
            guard !state.isDisposed else { return true }
            state.running[forwarding.key] = nil
            return false
        }
    }

    /// An upstream start has ended: a later disposal no longer counts on it, and a disposal whose
    /// interruption lost the race to another terminal event interrupts this start's own signal now. An
    /// upstream interrupted after disposal carries the interruption down itself.
    private func upstreamEnded(_ key: Int, interrupted: Bool) {
        let mustInterrupt = state.withLock { state -> Bool in
            guard state.running.removeValue(forKey: key) != nil else { return false }
            return state.isDisposed && !interrupted
        }
        if mustInterrupt { interruptOwnSignal() }
    }
}
