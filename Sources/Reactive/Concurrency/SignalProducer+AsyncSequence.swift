extension SignalProducer {
    /// A producer that, for each start, iterates `sequence` in a new task and sends its elements.
    ///
    /// Bridging of the end of the sequence: running out of elements sends `completed`; a thrown error
    /// sends `failed` with that error, typed as the sequence's `Failure` (`any Error` for sequences that
    /// throw untyped errors, `Never` for ones that cannot throw, such as `AsyncStream`). Disposing the
    /// start, or the signal terminating, cancels the task: the sequence sees the cancellation at its next
    /// suspension, and nothing it sends afterwards is delivered.
    ///
    /// Each element is sent from the task, with the waiting rules of any send: while another thread is
    /// delivering on the started signal, the task's thread waits for it, so slow observers pace the
    /// sequence (and hold that thread of the concurrency pool meanwhile).
    ///
    /// - Parameters:
    ///   - sequence: the elements to send, iterated anew for each start.
    ///   - priority: the priority of the task that iterates the sequence.
    public init<S: AsyncSequence & Sendable>(
        _ sequence: S, priority: TaskPriority? = nil
    ) where S.Element == Value, S.Failure == Failure {
        self.init { observer, lifetime in
            let task = Task(priority: priority) {
                do throws(Failure) {
                    for try await element in sequence {
                        observer.send(value: element)
                    }
                    observer.sendCompleted()
                } catch {
                    observer.send(error: error)
                }
            }
            lifetime.observeEnded { task.cancel() }
        }
    }
}
