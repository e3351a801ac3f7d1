/// A read-only value that can be observed: its producer sends the current value then every change;
/// its signal sends the changes only.
///
/// A property made from a producer or signal (`init(initial:then:)`) follows it for as long as the
/// property lives; when the source terminates, or the property is deinitialized, the property keeps its
/// last value and its signal and producers complete.
///
/// Thread-safety: every member may be called from any thread; see `MutableProperty` for the ordering of
/// changes.
public final class Property<Value: Sendable>: Sendable {
    private let read: @Sendable () -> Value
    /// What the property reads from and must keep alive: a subject, a mutable property, another property.
    private let source: any Sendable

    /// The current value, then every change.
    public let producer: SignalProducer<Value, Never>

    /// The changes from now on, without the current value.
    public let signal: Signal<Value, Never>

    private init(
        source: any Sendable,
        read: @escaping @Sendable () -> Value,
        producer: SignalProducer<Value, Never>,
        signal: Signal<Value, Never>
    ) {
        self.source = source
        self.read = read
        self.producer = producer
        self.signal = signal
    }

    /// The current value.
    public var value: Value { read() }

    /// A property that always holds `value`: its producer sends it and completes; its signal has
    /// already completed.
    public convenience init(value: Value) {
        self.init(
            source: (),
            read: { value },
            producer: SignalProducer(value: value),
            signal: Signal { observer, _ in observer.sendCompleted() }
        )
    }

    /// A read-only view of `property`, which it keeps alive.
    public convenience init(capturing property: MutableProperty<Value>) {
        self.init(source: property, read: { property.value }, producer: property.producer, signal: property.signal)
    }

    /// A property holding `initial`, then each value `producer` sends; started at once and interrupted
    /// when the property is deinitialized.
    public convenience init(initial: Value, then producer: SignalProducer<Value, Never>) {
        let subject = CurrentValueSubject<Value, Never>(initial)
        let start = producer.start { event in
            // Interruption means the property went away, or the source gave up: either way no change can
            // come any more, which is what completion says to the property's observers.
            if case let .value(value) = event { subject.send(value: value) } else { subject.sendCompleted() }
        }
        self.init(
            source: ScopedDisposable(CompositeDisposable([start])),
            read: { subject.value },
            producer: subject.producer,
            signal: subject.changes
        )
    }

    /// A property holding `initial`, then each value `signal` sends.
    public convenience init(initial: Value, then signal: Signal<Value, Never>) {
        self.init(initial: initial, then: SignalProducer(signal))
    }

    /// A property whose value is this property's value transformed; it keeps this property alive.
    ///
    /// `transform` is applied on each read and to each change, so it should be a pure function.
    public func map<U: Sendable>(_ transform: @escaping @Sendable (Value) -> U) -> Property<U> {
        Property<U>(
            source: self,
            read: { [read] in transform(read()) },
            producer: producer.map(transform),
            signal: signal.map(transform)
        )
    }
}
