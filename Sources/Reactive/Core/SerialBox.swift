/// Mutable state of a stateful operator, captured by the observer that relays one signal's events.
///
/// `@unchecked Sendable` is sound only under one rule, which every user of this type keeps: the box is
/// read and written solely from inside the serialized delivery of one signal (the signal's events never
/// run concurrently; see `SignalCore`), or under a lock the operator holds.
@usableFromInline
final class SerialBox<Value>: @unchecked Sendable {
    // Serialized by the rule above, so the runtime's exclusivity check would only cost time.
    @usableFromInline @exclusivity(unchecked)
    var value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }
}
