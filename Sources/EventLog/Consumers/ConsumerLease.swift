/// Who serves a durable consumer, and for how long without renewing: a log that several daemons share
/// (PostgreSQL) lets one of them serve a consumer at a time, so no event goes to two members at once
/// and no daemon's saves undo another's.
///
/// Each save renews the lease; a daemon that stops serving a consumer releases it, and one that
/// crashed loses it once `duration` has passed. A log one process owns (the SQLite file) grants every
/// claim. Values are Sendable.
package struct ConsumerLease: Sendable, Equatable {
    /// The serving daemon's name for itself, unique among the daemons sharing the log.
    package var owner: String
    /// How long a claim or a save holds the consumer.
    package var duration: Duration

    package init(owner: String, duration: Duration = .seconds(10)) {
        self.owner = owner
        self.duration = duration
    }

    /// `duration` in whole milliseconds.
    package var milliseconds: Int64 { Int64(clamping: duration.wholeMillisecondsRoundedUp) }
}
