// Overloads for 3 to 6 sources, each built on the one below it. Parameter packs could say this
// once, but a pack cannot yet be kept slot by slot in shared, lock-guarded state without casts.

extension Signal {
    /// Tuples of the latest values of 3 signals; see `combineLatest(_:_:)`.
    public static func combineLatest<A, B, C>(
        _ a: Signal<A, Failure>,
        _ b: Signal<B, Failure>,
        _ c: Signal<C, Failure>
    ) -> Signal where Value == (A, B, C) {
        Signal<(A, B), Failure>.combineLatest(a, b)
            .combineLatest(with: c)
            .map { ($0.0.0, $0.0.1, $0.1) }
    }

    /// Tuples of the latest values of 4 signals; see `combineLatest(_:_:)`.
    public static func combineLatest<A, B, C, D>(
        _ a: Signal<A, Failure>,
        _ b: Signal<B, Failure>,
        _ c: Signal<C, Failure>,
        _ d: Signal<D, Failure>
    ) -> Signal where Value == (A, B, C, D) {
        Signal<(A, B, C), Failure>.combineLatest(a, b, c)
            .combineLatest(with: d)
            .map { ($0.0.0, $0.0.1, $0.0.2, $0.1) }
    }

    /// Tuples of the latest values of 5 signals; see `combineLatest(_:_:)`.
    public static func combineLatest<A, B, C, D, E>(
        _ a: Signal<A, Failure>,
        _ b: Signal<B, Failure>,
        _ c: Signal<C, Failure>,
        _ d: Signal<D, Failure>,
        _ e: Signal<E, Failure>
    ) -> Signal where Value == (A, B, C, D, E) {
        Signal<(A, B, C, D), Failure>.combineLatest(a, b, c, d)
            .combineLatest(with: e)
            .map { ($0.0.0, $0.0.1, $0.0.2, $0.0.3, $0.1) }
    }

    /// Tuples of the latest values of 6 signals; see `combineLatest(_:_:)`.
    public static func combineLatest<A, B, C, D, E, F>(
        _ a: Signal<A, Failure>,
        _ b: Signal<B, Failure>,
        _ c: Signal<C, Failure>,
        _ d: Signal<D, Failure>,
        _ e: Signal<E, Failure>,
        _ f: Signal<F, Failure>
    ) -> Signal where Value == (A, B, C, D, E, F) {
        Signal<(A, B, C, D, E), Failure>.combineLatest(a, b, c, d, e)
            .combineLatest(with: f)
            .map { ($0.0.0, $0.0.1, $0.0.2, $0.0.3, $0.0.4, $0.1) }
    }

    /// `reduce` applied to the latest values of 2 signals (RAC's `combineLatest:reduce:`).
    public static func combineLatest<A, B>(
        _ a: Signal<A, Failure>,
        _ b: Signal<B, Failure>,
        reduce: @escaping @Sendable (A, B) -> Value
    ) -> Signal {
        Signal<(A, B), Failure>.combineLatest(a, b).map(reduce)
    }

    /// `reduce` applied to the latest values of 3 signals (RAC's `combineLatest:reduce:`).
    public static func combineLatest<A, B, C>(
        _ a: Signal<A, Failure>,
        _ b: Signal<B, Failure>,
        _ c: Signal<C, Failure>,
        reduce: @escaping @Sendable (A, B, C) -> Value
    ) -> Signal {
        Signal<(A, B, C), Failure>.combineLatest(a, b, c).map(reduce)
    }

    /// `reduce` applied to the latest values of 4 signals (RAC's `combineLatest:reduce:`).
    public static func combineLatest<A, B, C, D>(
        _ a: Signal<A, Failure>,
        _ b: Signal<B, Failure>,
        _ c: Signal<C, Failure>,
        _ d: Signal<D, Failure>,
        reduce: @escaping @Sendable (A, B, C, D) -> Value
    ) -> Signal {
        Signal<(A, B, C, D), Failure>.combineLatest(a, b, c, d).map(reduce)
    }
}

extension SignalProducer {
    /// Tuples of the latest values of 3 producers; see `combineLatest(_:_:)`.
    public static func combineLatest<A, B, C>(
        _ a: SignalProducer<A, Failure>,
        _ b: SignalProducer<B, Failure>,
        _ c: SignalProducer<C, Failure>
    ) -> SignalProducer where Value == (A, B, C) {
        SignalProducer<(A, B), Failure>.combineLatest(a, b)
            .combineLatest(with: c)
            .map { ($0.0.0, $0.0.1, $0.1) }
    }

    /// Tuples of the latest values of 4 producers; see `combineLatest(_:_:)`.
    public static func combineLatest<A, B, C, D>(
        _ a: SignalProducer<A, Failure>,
        _ b: SignalProducer<B, Failure>,
        _ c: SignalProducer<C, Failure>,
        _ d: SignalProducer<D, Failure>
    ) -> SignalProducer where Value == (A, B, C, D) {
        SignalProducer<(A, B, C), Failure>.combineLatest(a, b, c)
            .combineLatest(with: d)
            .map { ($0.0.0, $0.0.1, $0.0.2, $0.1) }
    }

    /// Tuples of the latest values of 5 producers; see `combineLatest(_:_:)`.
    public static func combineLatest<A, B, C, D, E>(
        _ a: SignalProducer<A, Failure>,
        _ b: SignalProducer<B, Failure>,
        _ c: SignalProducer<C, Failure>,
        _ d: SignalProducer<D, Failure>,
        _ e: SignalProducer<E, Failure>
    ) -> SignalProducer where Value == (A, B, C, D, E) {
        SignalProducer<(A, B, C, D), Failure>.combineLatest(a, b, c, d)
            .combineLatest(with: e)
            .map { ($0.0.0, $0.0.1, $0.0.2, $0.0.3, $0.1) }
    }

    /// Tuples of the latest values of 6 producers; see `combineLatest(_:_:)`.
    public static func combineLatest<A, B, C, D, E, F>(
        _ a: SignalProducer<A, Failure>,
        _ b: SignalProducer<B, Failure>,
        _ c: SignalProducer<C, Failure>,
        _ d: SignalProducer<D, Failure>,
        _ e: SignalProducer<E, Failure>,
        _ f: SignalProducer<F, Failure>
    ) -> SignalProducer where Value == (A, B, C, D, E, F) {
        SignalProducer<(A, B, C, D, E), Failure>.combineLatest(a, b, c, d, e)
            .combineLatest(with: f)
            .map { ($0.0.0, $0.0.1, $0.0.2, $0.0.3, $0.0.4, $0.1) }
    }

    /// `reduce` applied to the latest values of 2 producers (RAC's `combineLatest:reduce:`).
    public static func combineLatest<A, B>(
        _ a: SignalProducer<A, Failure>,
        _ b: SignalProducer<B, Failure>,
        reduce: @escaping @Sendable (A, B) -> Value
    ) -> SignalProducer {
        SignalProducer<(A, B), Failure>.combineLatest(a, b).map(reduce)
    }

    /// `reduce` applied to the latest values of 3 producers (RAC's `combineLatest:reduce:`).
    public static func combineLatest<A, B, C>(
        _ a: SignalProducer<A, Failure>,
        _ b: SignalProducer<B, Failure>,
        _ c: SignalProducer<C, Failure>,
        reduce: @escaping @Sendable (A, B, C) -> Value
    ) -> SignalProducer {
        SignalProducer<(A, B, C), Failure>.combineLatest(a, b, c).map(reduce)
    }

    /// `reduce` applied to the latest values of 4 producers (RAC's `combineLatest:reduce:`).
    public static func combineLatest<A, B, C, D>(
        _ a: SignalProducer<A, Failure>,
        _ b: SignalProducer<B, Failure>,
        _ c: SignalProducer<C, Failure>,
        _ d: SignalProducer<D, Failure>,
        reduce: @escaping @Sendable (A, B, C, D) -> Value
    ) -> SignalProducer {
        SignalProducer<(A, B, C, D), Failure>.combineLatest(a, b, c, d).map(reduce)
    }
}
