extension StreamPolicy {
    /// Throws `invalidArgument` for limits that cannot work.
    package func validate(stream: String) throws(EventLogError) {
        if let problem { throw EventLogError(.invalidArgument, problem, stream: stream) }
    }
}
