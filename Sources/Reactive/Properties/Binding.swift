/// Something that values can be bound to with `<~`: an action to apply each value, and the lifetime
/// after which the binding must stop.
///
/// Thread-safety: the action may be called from any thread, one value at a time per binding.
public struct BindingTarget<Value: Sendable>: Sendable {
    /// When it ends, every binding into this target ends.
    public let lifetime: Lifetime
    /// Applies one bound value.
    public let action: @Sendable (Value) -> Void

    /// A target that applies values with `action` until `lifetime` ends.
    ///
    /// `action` should not retain the object it writes to, or that object would live as long as the
    /// source of a binding does; capture it weakly.
    public init(lifetime: Lifetime, action: @escaping @Sendable (Value) -> Void) {
        self.lifetime = lifetime
        self.action = action
    }
}

/// A type that can be the left-hand side of `<~`.
public protocol BindingTargetProvider<Value>: Sendable {
    associatedtype Value: Sendable
    /// The target values are bound to.
    var bindingTarget: BindingTarget<Value> { get }
}

extension BindingTarget: BindingTargetProvider {
    /// The target itself.
    public var bindingTarget: BindingTarget<Value> { self }
}

precedencegroup BindingPrecedence {
    associativity: right
    higherThan: AssignmentPrecedence
    lowerThan: TernaryPrecedence
}

infix operator <~ : BindingPrecedence

/// Binds the values of `source` to `target` until the source terminates, the target's lifetime ends, or
/// the returned disposable is disposed, whichever comes first; the returned disposable is disposed in
/// all three cases.
@discardableResult
public func <~ <Target: BindingTargetProvider>(
    target: Target, source: Signal<Target.Value, Never>
) -> any Disposable {
    bind(target.bindingTarget, to: source, interrupter: nil)
}

/// Starts `source` and binds its values to `target`; the start is interrupted when the target's lifetime
/// ends or the returned disposable is disposed.
@discardableResult
public func <~ <Target: BindingTargetProvider>(
    target: Target, source: SignalProducer<Target.Value, Never>
) -> any Disposable {
    source.startWithSignal { signal, interrupter in
        bind(target.bindingTarget, to: signal, interrupter: interrupter)
    }
}

/// Binds the current value of `source`, then each change, to `target`.
@discardableResult
public func <~ <Target: BindingTargetProvider>(
    target: Target, source: Property<Target.Value>
) -> any Disposable {
    target <~ source.producer
}

/// Binds the current value of `source`, then each change, to `target`.
@discardableResult
public func <~ <Target: BindingTargetProvider>(
    target: Target, source: MutableProperty<Target.Value>
) -> any Disposable {
    target <~ source.producer
}

/// The binding itself. It registers with the target's lifetime and unregisters as soon as the source
/// terminates (the binding is then disposed), so a long-lived target does not collect one dead entry
/// per finished binding.
private func bind<Value>(
    _ target: BindingTarget<Value>,
    to signal: Signal<Value, Never>,
    interrupter: (any Disposable)?
) -> any Disposable {
    let binding = CompositeDisposable()
    let registration = SerialDisposable()
    binding += registration
    binding += interrupter
    binding += signal.observe { event in
        if case let .value(value) = event { target.action(value) } else { binding.dispose() }
    }
    registration.inner = target.lifetime.observeEnded { binding.dispose() }
    return binding
}
