/// One background checkpoint cycle (see `BackgroundCheckpointer`): the WAL copied into the
/// database file, reported to `EventLogOptions.checkpointObserver`.
///
/// Values are Sendable.
public struct CheckpointReport: Sendable, Equatable {
    /// From the start of the cycle's first pass to the end of its second.
    public var duration: Duration
    /// The WAL's size in pages when the second pass ran.
    public var walPages: Int
    /// The pages the second pass found copied into the database file.
    public var copiedPages: Int
    /// Whether the WAL was copied to its end (else a reader's snapshot held part of it back).
    public var reachedEnd: Bool

    /// A report of a cycle that took `duration` and left `copiedPages` of `walPages` copied.
    public init(duration: Duration, walPages: Int, copiedPages: Int, reachedEnd: Bool) {
        self.duration = duration
        self.walPages = walPages
        self.copiedPages = copiedPages
        self.reachedEnd = reachedEnd
    }
}
