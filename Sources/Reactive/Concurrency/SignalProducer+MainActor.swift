extension SignalProducer {
    /// Starts the producer, sending its events to a `@MainActor` function on the main actor through
    /// `MainActorScheduler`.
    ///
    /// Only the delivery moves: the start handler runs where `start` is called (`start(on:)` moves it).
    /// The events keep their order. Started on the main actor, a producer that sends synchronously (a
    /// property's current value, a replay) has delivered those events before this method returns; events
    /// sent from other threads wait for the main actor's next turn. Disposing the returned disposable
    /// interrupts the start and drops the values still waiting for the main actor; the terminal event is
    /// always delivered, on the main actor, the interruption included.
    ///
    /// ```swift
    /// @MainActor final class OrderModel { var orders: [Order] = []; var isLoading = true }
    ///
    /// let model = OrderModel()
    /// orders.startOnMainActor { event in
    ///     if case let .value(order) = event { model.orders.append(order) }
    ///     if event.isTerminating { model.isLoading = false }
    /// }
    /// ```
    ///
    /// - Returns: the disposable that interrupts this start.
    @discardableResult
    public func startOnMainActor(_ action: @escaping @MainActor (Event) -> Void) -> any Disposable {
        let delivery = MainActorDelivery(action)
        return startWithSignal { signal, interrupter in
            signal.observe(delivery.send)
            return AnyDisposable {
                delivery.stop()
                interrupter.dispose()
            }
        }
    }

    /// Starts the producer, sending its values to a `@MainActor` function on the main actor; see
    /// `startOnMainActor(_:)`.
    ///
    /// ```swift
    /// @MainActor final class PriceModel { var last: Double = 0 }
    ///
    /// let model = PriceModel()
    /// prices.startWithValuesOnMainActor { model.last = $0 }
    /// ```
    ///
    /// - Returns: the disposable that interrupts this start.
    @discardableResult
    public func startWithValuesOnMainActor(_ action: @escaping @MainActor (Value) -> Void) -> any Disposable {
        startOnMainActor { event in
            if case let .value(value) = event { action(value) }
        }
    }
}
