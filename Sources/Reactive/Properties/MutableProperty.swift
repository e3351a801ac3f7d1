/// A value that can be read, written and observed: its producer sends the current value then every
/// change; its signal sends the changes only.
///
/// When the property is deinitialized its signal and producers complete, so observers never wait for
/// changes that cannot come. Bindings into it (`property <~ source`) end with it.
///
/// Ordering: changes reach observers in the order they were stored, even when several threads set the
/// value at once; the lock guarding the value is never held while an observer runs (see
/// `CurrentValueSubject`). Reentrancy: an observer may set the value from inside its callback; the
/// new value is delivered after the current one has reached every observer.
///
/// Thread-safety: every member may be called from any thread.
public final class MutableProperty<Value: Sendable>: Sendable {
    private let subject: CurrentValueSubject<Value, Never>
    private let lifetimeToken: Lifetime.Token

    /// Ends when the property is deinitialized; bindings into the property are tied to it.
    public let lifetime: Lifetime

    /// A property holding `initial`.
    public init(_ initial: Value) {
        subject = CurrentValueSubject(initial)
        (lifetime, lifetimeToken) = Lifetime.make()
    }

    deinit {
        lifetimeToken.end()
        subject.sendCompleted()
    }

    /// The current value; setting it sends the change to observers.
    public var value: Value {
        get { subject.value }
        set { subject.value = newValue }
    }

    /// Changes the value in place, atomically with respect to every other write, then sends it.
    ///
    /// `action` runs under the property's lock: it must not touch this property.
    @discardableResult
    public func modify<Result>(_ action: (inout Value) throws -> Result) rethrows -> Result {
        try subject.modify(action)
    }

    /// The current value, then every change; completes when the property is deinitialized.
    public var producer: SignalProducer<Value, Never> { SignalProducer(subject.signal) }

    /// The changes from now on, without the current value; completes when the property is deinitialized.
    public var signal: Signal<Value, Never> { subject.changes }
}

extension MutableProperty: BindingTargetProvider {
    /// A target that sets this property, holding it weakly, and ends with it.
    public var bindingTarget: BindingTarget<Value> {
        BindingTarget(lifetime: lifetime) { [weak self] value in self?.value = value }
    }
}
