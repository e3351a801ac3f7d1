/// How a stream of streams is flattened into one stream: which inner streams run, and when.
///
/// A struct wrapping a private enum, so that adding a strategy later breaks no caller's `switch`.
/// With every strategy, the outer stream failing fails the result, an inner stream failing fails the
/// result and disposes everything, and an inner stream being interrupted interrupts the result.
///
/// Thread-safety: an immutable value.
public struct FlattenStrategy: Sendable, Equatable, CustomStringConvertible {
    private enum Kind: Equatable {
        /// At most `limit` inner streams run at once; the others wait, in arrival order.
        case concurrent(limit: UInt)
        /// Only the newest inner stream runs; a new one disposes the previous one.
        case latest
        /// The first inner stream to send a value wins; the others are disposed.
        case race
    }

    private let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    /// Every inner stream runs as soon as it arrives; values are interleaved as they come.
    ///
    /// Completes when the outer stream and every inner stream have completed.
    public static let merge = FlattenStrategy(.concurrent(limit: .max))

    /// Inner streams run one after the other, in arrival order; the next starts when the previous
    /// completes.
    ///
    /// Completes when the outer stream and every inner stream have completed.
    public static let concat = FlattenStrategy(.concurrent(limit: 1))

    /// Only the newest inner stream runs: a new inner stream disposes the previous one
    /// (RAC's `switchToLatest`).
    ///
    /// Completes when the outer stream and the current inner stream have completed.
    public static let latest = FlattenStrategy(.latest)

    /// The first inner stream to send a value wins; every other inner stream is disposed and later
    /// ones are ignored.
    ///
    /// Completes when the outer stream has completed and the winner has completed (or, with no winner
    /// yet, when every inner stream has completed without a value).
    public static let race = FlattenStrategy(.race)

    /// At most `limit` inner streams run at once; the ones beyond the limit wait in a queue and start,
    /// in arrival order, as running ones complete. A limit of 0 is treated as 1.
    ///
    /// Completes when the outer stream and every inner stream (running or queued) have completed.
    public static func concurrent(limit: UInt) -> FlattenStrategy {
        FlattenStrategy(.concurrent(limit: Swift.max(limit, 1)))
    }

    /// The strategy's name as written in code, e.g. `concurrent(limit: 2)`.
    public var description: String {
        switch kind {
        case .concurrent(limit: .max): "merge"
        case .concurrent(limit: 1): "concat"
        case let .concurrent(limit): "concurrent(limit: \(limit))"
        case .latest: "latest"
        case .race: "race"
        }
    }

    /// The values of the producers `outer` sends, run as this strategy says.
    func flatten<Inner, Failure>(
        _ outer: Signal<SignalProducer<Inner, Failure>, Failure>
    ) -> Signal<Inner, Failure> {
        switch kind {
        case let .concurrent(limit): outer.flattenConcurrently(limit: limit)
        case .latest: outer.flattenLatest()
        case .race: outer.flattenRace()
        }
    }
}
