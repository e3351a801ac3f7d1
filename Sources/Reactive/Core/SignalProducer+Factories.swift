extension SignalProducer {
    /// A producer that sends `value`, then completes.
    public init(value: Value) {
        self.init { observer, _ in
            observer.send(value: value)
            observer.sendCompleted()
        }
    }

    /// A producer that sends each of `values`, then completes; it stops early when disposed.
    public init<S: Sequence & Sendable>(_ values: S) where S.Element == Value {
        self.init { observer, lifetime in
            for value in values {
                guard !lifetime.hasEnded else { return }
                observer.send(value: value)
            }
            observer.sendCompleted()
        }
    }

    /// A producer that sends each of `values`, then completes.
    public init(values first: Value, _ rest: Value...) {
        self.init([first] + rest)
    }

    /// A producer that fails with `error` at once.
    public init(error: Failure) {
        self.init { observer, _ in observer.send(error: error) }
    }

    /// A producer that sends the success value and completes, or fails, as `result` says.
    public init(result: Result<Value, Failure>) {
        switch result {
        case let .success(value): self.init(value: value)
        case let .failure(error): self.init(error: error)
        }
    }

    /// A producer that runs `action` anew for every start, sending its result.
    public init(_ action: @escaping @Sendable () -> Result<Value, Failure>) {
        self.init { observer, _ in
            switch action() {
            case let .success(value):
                observer.send(value: value)
                observer.sendCompleted()
            case let .failure(error):
                observer.send(error: error)
            }
        }
    }

    /// A producer that completes at once without a value.
    public static var empty: SignalProducer {
        SignalProducer { observer, _ in observer.sendCompleted() }
    }

    /// A producer that never sends anything and never terminates.
    public static var never: SignalProducer {
        SignalProducer { _, _ in }
    }

    /// A producer that calls `makeProducer` anew for every start and starts what it returns.
    public static func deferred(_ makeProducer: @escaping @Sendable () -> SignalProducer) -> SignalProducer {
        SignalProducer { observer, lifetime in
            lifetime += makeProducer().start(observer)
        }
    }
}
