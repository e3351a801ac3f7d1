// Overloads for 3 to 6 sources, each built on the one below it. Parameter packs could say this
// once, but a pack cannot yet be kept slot by slot in shared, lock-guarded state without casts.

extension Signal {
    /// Tuples of the values, paired in order, of 3 signals; see `zip(_:_:)`.
    public static func zip<A, B, C>(
        _ a: Signal<A, Failure>,
        _ b: Signal<B, Failure>,
        _ c: Signal<C, Failure>
    ) -> Signal where Value == (A, B, C) {
        Signal<(A, B), Failure>.zip(a, b)
            .zip(with: c)
            .map { ($0.0.0, $0.0.1, $0.1) }
    }

    /// Tuples of the values, paired in order, of 4 signals; see `zip(_:_:)`.
    public static func zip<A, B, C, D>(
        _ a: Signal<A, Failure>,
        _ b: Signal<B, Failure>,
        _ c: Signal<C, Failure>,
        _ d: Signal<D, Failure>
    ) -> Signal where Value == (A, B, C, D) {
        Signal<(A, B, C), Failure>.zip(a, b, c)
            .zip(with: d)
            .map { ($0.0.0, $0.0.1, $0.0.2, $0.1) }
    }

    /// Tuples of the values, paired in order, of 5 signals; see `zip(_:_:)`.
    public static func zip<A, B, C, D, E>(
        _ a: Signal<A, Failure>,
        _ b: Signal<B, Failure>,
        _ c: Signal<C, Failure>,
        _ d: Signal<D, Failure>,
        _ e: Signal<E, Failure>
    ) -> Signal where Value == (A, B, C, D, E) {
        Signal<(A, B, C, D), Failure>.zip(a, b, c, d)
            .zip(with: e)
            .map { ($0.0.0, $0.0.1, $0.0.2, $0.0.3, $0.1) }
    }

    /// Tuples of the values, paired in order, of 6 signals; see `zip(_:_:)`.
    public static func zip<A, B, C, D, E, F>(
        _ a: Signal<A, Failure>,
        _ b: Signal<B, Failure>,
        _ c: Signal<C, Failure>,
        _ d: Signal<D, Failure>,
        _ e: Signal<E, Failure>,
        _ f: Signal<F, Failure>
    ) -> Signal where Value == (A, B, C, D, E, F) {
        Signal<(A, B, C, D, E), Failure>.zip(a, b, c, d, e)
            .zip(with: f)
            .map { ($0.0.0, $0.0.1, $0.0.2, $0.0.3, $0.0.4, $0.1) }
    }
}

extension SignalProducer {
    /// Tuples of the values, paired in order, of 3 producers; see `zip(_:_:)`.
    public static func zip<A, B, C>(
        _ a: SignalProducer<A, Failure>,
        _ b: SignalProducer<B, Failure>,
        _ c: SignalProducer<C, Failure>
    ) -> SignalProducer where Value == (A, B, C) {
        SignalProducer<(A, B), Failure>.zip(a, b)
            .zip(with: c)
            .map { ($0.0.0, $0.0.1, $0.1) }
    }

    /// Tuples of the values, paired in order, of 4 producers; see `zip(_:_:)`.
    public static func zip<A, B, C, D>(
        _ a: SignalProducer<A, Failure>,
        _ b: SignalProducer<B, Failure>,
        _ c: SignalProducer<C, Failure>,
        _ d: SignalProducer<D, Failure>
    ) -> SignalProducer where Value == (A, B, C, D) {
        SignalProducer<(A, B, C), Failure>.zip(a, b, c)
            .zip(with: d)
            .map { ($0.0.0, $0.0.1, $0.0.2, $0.1) }
    }

    /// Tuples of the values, paired in order, of 5 producers; see `zip(_:_:)`.
    public static func zip<A, B, C, D, E>(
        _ a: SignalProducer<A, Failure>,
        _ b: SignalProducer<B, Failure>,
        _ c: SignalProducer<C, Failure>,
        _ d: SignalProducer<D, Failure>,
        _ e: SignalProducer<E, Failure>
    ) -> SignalProducer where Value == (A, B, C, D, E) {
        SignalProducer<(A, B, C, D), Failure>.zip(a, b, c, d)
            .zip(with: e)
            .map { ($0.0.0, $0.0.1, $0.0.2, $0.0.3, $0.1) }
    }

    /// Tuples of the values, paired in order, of 6 producers; see `zip(_:_:)`.
    public static func zip<A, B, C, D, E, F>(
        _ a: SignalProducer<A, Failure>,
        _ b: SignalProducer<B, Failure>,
        _ c: SignalProducer<C, Failure>,
        _ d: SignalProducer<D, Failure>,
        _ e: SignalProducer<E, Failure>,
        _ f: SignalProducer<F, Failure>
    ) -> SignalProducer where Value == (A, B, C, D, E, F) {
        SignalProducer<(A, B, C, D, E), Failure>.zip(a, b, c, d, e)
            .zip(with: f)
            .map { ($0.0.0, $0.0.1, $0.0.2, $0.0.3, $0.0.4, $0.1) }
    }
}
