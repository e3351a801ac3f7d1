/// A failure streamctl reports on standard error before exiting with status 1.
///
/// Values are Sendable.
struct CtlFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong and what to do about it.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
