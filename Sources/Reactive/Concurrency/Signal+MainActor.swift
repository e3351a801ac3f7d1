extension Signal {
    /// Attaches a `@MainActor` function of events, called on the main actor through `MainActorScheduler`.
    ///
    /// The events keep their order. An event sent on the main actor while no earlier delivery is waiting
    /// is delivered at once, before `send` returns; others wait for the main actor's next turn. Disposing
    /// the returned disposable detaches the function and drops the values still waiting for the main
    /// actor; a terminal event already sent is still delivered.
    ///
    /// ```swift
    /// @MainActor final class PriceModel { var last: Double = 0; var isLive = true }
    ///
    /// let model = PriceModel()
    /// prices.observeOnMainActor { event in
    ///     if case let .value(price) = event { model.last = price }
    ///     if event.isTerminating { model.isLive = false }
    /// }
    /// ```
    ///
    /// - Returns: the disposable that detaches the function.
    @discardableResult
    public func observeOnMainActor(_ action: @escaping @MainActor (Event) -> Void) -> any Disposable {
        let delivery = MainActorDelivery(action)
        let observation = observe(delivery.send)
        return AnyDisposable {
            delivery.stop()
            observation.dispose()
        }
    }

    /// Attaches a `@MainActor` function of values, called on the main actor; terminal events are ignored.
    /// See `observeOnMainActor(_:)`.
    ///
    /// ```swift
    /// prices.observeValuesOnMainActor { model.last = $0 }
    /// ```
    @discardableResult
    public func observeValuesOnMainActor(_ action: @escaping @MainActor (Value) -> Void) -> any Disposable {
        observeOnMainActor { event in
            if case let .value(value) = event { action(value) }
        }
    }
}
