import Synchronization

extension Signal {
    /// RAC's `-bind:`: `makeBinding` is called once, here, and returns the function that turns each value
    /// into a producer, which is started at once and whose values are forwarded (as with `.merge`).
    ///
    /// The binding function may keep state of its own: it is called for one value at a time, in order.
    /// It ends the bind early by returning nil or by setting `stop` to true (the producer it returns
    /// with `stop` is still started): this signal is then no longer observed, and the result completes
    /// once the producers already returned have completed. Otherwise the result completes when this
    /// signal and every returned producer have completed. This signal failing, or a returned producer
    /// failing or being interrupted, ends the result the same way and disposes the other producers.
    ///
    /// For the common case, a stateless transform with no early stop, use `flatMap(.merge, _:)`.
    ///
    /// ```swift
    /// // The first value above 10, and the running totals until then.
    /// let totals = values.bind {
    ///     var total = 0
    ///     return { value, stop in
    ///         total += value
    ///         stop = value > 10
    ///         return SignalProducer(value: total)
    ///     }
    /// }
    /// ```
    public func bind<U>(
        _ makeBinding: () -> (_ value: Value, _ stop: inout Bool) -> SignalProducer<U, Failure>?
    ) -> Signal<U, Failure> {
        bind(makeBinding, mayStopObserving: { true })
    }

    /// `bind(_:)`, asking `mayStopObserving` before it stops observing this signal early. When that says
    /// no (an interruption is already on its way through this signal: see
    /// `StartInterrupter.stopForwarding(_:)`), the binding function is not called again and the result
    /// ends with this signal's next terminal event, which is that interruption.
    func bind<U>(
        _ makeBinding: () -> (_ value: Value, _ stop: inout Bool) -> SignalProducer<U, Failure>?,
        mayStopObserving: @escaping @Sendable () -> Bool
    ) -> Signal<U, Failure> {
        let binding = BindingFunction(makeBinding())
        return Signal<U, Failure> { downstream, lifetime in
            let flattener = ConcurrentFlattener(limit: .max, downstream: downstream, lifetime: lifetime)
            let (sourceLifetime, sourceToken) = Lifetime.make()
            lifetime += AnyDisposable { sourceToken.end() }
            observe(Observer { event in
                switch event {
                case let .value(value):
                    guard !binding.hasStopped else { return }
                    var stop = false
                    let producer = binding.call(value, &stop)
                    if let producer { flattener.receiveOuter(.value(producer)) }
                    if producer == nil || stop {
                        binding.hasStopped = true
                        guard mayStopObserving() else { return }
                        sourceToken.end()
                        flattener.receiveOuter(.completed)
                    }
                case let .failed(error): flattener.receiveOuter(.failed(error))
                case .completed: flattener.receiveOuter(.completed)
                case .interrupted: flattener.receiveOuter(.interrupted)
                }
            }, during: sourceLifetime)
        }
    }
}

extension SignalProducer {
    /// RAC's `-bind:`: `makeBinding` is called once per start and returns that start's binding function;
    /// see `Signal.bind(_:)`. Two starts never share the state the binding function keeps.
    ///
    /// Ending the bind early (nil, or `stop` set) interrupts this producer's start at once; the result
    /// completes once the producers already returned have completed. If the start was disposed before
    /// the bind ended (its interruption is on its way, through an `observe(on:)` say), the result is
    /// interrupted by it instead.
    public func bind<U>(
        _ makeBinding: @escaping @Sendable () -> (_ value: Value, _ stop: inout Bool) -> SignalProducer<U, Failure>?
    ) -> SignalProducer<U, Failure> {
        SignalProducer<U, Failure>(forwardingInterruption: { observer, lifetime, resultInterrupter in
            startWithSignal { signal, interrupter in
                lifetime += interrupter
                let forwarding = resultInterrupter.forward(to: interrupter)
                signal.bind(makeBinding, mayStopObserving: { !resultInterrupter.stopForwarding(forwarding) })
                    .observe(observer, during: lifetime)
            }
        })
    }
}

/// The binding function of one bind, which may capture mutable state and so is not `Sendable`.
///
/// `@unchecked Sendable` is sound because `call` and `hasStopped` are used only from the deliveries of
/// the one signal the bind observes, which are serialized (one at a time, each ordered after the previous by the signal's
/// gate), and because the function is created before that signal is observed and used nowhere else.
private final class BindingFunction<Value, U: Sendable, Failure: Error>: @unchecked Sendable {
    private let function: (Value, inout Bool) -> SignalProducer<U, Failure>?
    /// Set when the binding function ended the bind; it is not called again.
    var hasStopped = false

    init(_ function: @escaping (Value, inout Bool) -> SignalProducer<U, Failure>?) {
        self.function = function
    }

    func call(_ value: Value, _ stop: inout Bool) -> SignalProducer<U, Failure>? {
        function(value, &stop)
    }
}
