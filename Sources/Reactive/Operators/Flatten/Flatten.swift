extension Signal {
    /// The values of the producers this signal sends, run as `strategy` says.
    ///
    /// This signal failing fails the result; an inner producer failing fails the result and disposes
    /// everything; an inner producer being interrupted interrupts the result. Completion depends on
    /// `strategy`. Disposing the result disposes this signal's observation and every inner producer.
    public func flatten<Inner>(_ strategy: FlattenStrategy) -> Signal<Inner, Failure>
    where Value == SignalProducer<Inner, Failure> {
        strategy.flatten(self)
    }

    /// The values of the signals this signal sends, observed as `strategy` says.
    ///
    /// Inner signals are hot: with `.concat` or `.concurrent(limit:)`, an inner signal that waits for
    /// its turn misses whatever it sends before then. `.merge`, `.latest` and `.race` lose nothing.
    public func flatten<Inner>(_ strategy: FlattenStrategy) -> Signal<Inner, Failure>
    where Value == Signal<Inner, Failure> {
        map { SignalProducer($0) }.flatten(strategy)
    }

    /// Each value turned into a producer by `transform`, whose values are flattened as `strategy` says.
    ///
    /// `flatMap(.merge)` is RAC's `-flattenMap:`; RAC's `-bind:`, with per-start state and early stop,
    /// is `bind(_:)`.
    public func flatMap<U>(
        _ strategy: FlattenStrategy, _ transform: @escaping @Sendable (Value) -> SignalProducer<U, Failure>
    ) -> Signal<U, Failure> {
        map(transform).flatten(strategy)
    }

    /// Each value turned into a signal by `transform`, whose values are flattened as `strategy` says.
    public func flatMap<U>(
        _ strategy: FlattenStrategy, _ transform: @escaping @Sendable (Value) -> Signal<U, Failure>
    ) -> Signal<U, Failure> {
        map(transform).flatten(strategy)
    }
}

extension SignalProducer {
    /// The values of the producers this producer sends, run as `strategy` says.
    ///
    /// This producer failing fails the result; an inner producer failing fails the result and disposes
    /// everything; an inner producer being interrupted interrupts the result. Disposing a start of the
    /// result interrupts this producer's start and every inner producer.
    ///
    /// The interruption reaches the result through this producer's start only (with its hops); inner
    /// producers are disposed when it arrives, and their own hops are not waited for. When this producer
    /// has already completed (`concat` of a fixed list, say), the result is interrupted at once. That
    /// is ReactiveSwift's rule for every flatten, and it keeps the result from waiting on a scheduler
    /// each inner producer may hop to.
    public func flatten<Inner>(_ strategy: FlattenStrategy) -> SignalProducer<Inner, Failure>
    where Value == SignalProducer<Inner, Failure> {
        lift { $0.flatten(strategy) }
    }

    /// The values of the signals this producer sends, observed as `strategy` says; see
    /// `Signal.flatten(_:)` for what waiting hot signals miss.
    public func flatten<Inner>(_ strategy: FlattenStrategy) -> SignalProducer<Inner, Failure>
    where Value == Signal<Inner, Failure> {
        lift { $0.flatten(strategy) }
    }

    /// Each value turned into a producer by `transform`, whose values are flattened as `strategy` says.
    public func flatMap<U>(
        _ strategy: FlattenStrategy, _ transform: @escaping @Sendable (Value) -> SignalProducer<U, Failure>
    ) -> SignalProducer<U, Failure> {
        lift { $0.flatMap(strategy, transform) }
    }

    /// Each value turned into a signal by `transform`, whose values are flattened as `strategy` says.
    public func flatMap<U>(
        _ strategy: FlattenStrategy, _ transform: @escaping @Sendable (Value) -> Signal<U, Failure>
    ) -> SignalProducer<U, Failure> {
        lift { $0.flatMap(strategy, transform) }
    }
}
