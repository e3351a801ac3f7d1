extension Duration {
    /// The duration in whole milliseconds, rounded up so that no positive duration becomes 0 (a
    /// negative one is 0): how `streamd` keeps an age or a wait.
    package var wholeMillisecondsRoundedUp: UInt64 {
        let parts = components
        let milliseconds = parts.seconds * 1_000 + parts.attoseconds / 1_000_000_000_000_000
        let rest = parts.attoseconds % 1_000_000_000_000_000
        return UInt64(max(0, milliseconds + (rest > 0 ? 1 : 0)))
    }

    /// The duration in whole microseconds (truncated), as the log stores an age.
    package var wholeMicroseconds: Int64 {
        components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
    }
}
