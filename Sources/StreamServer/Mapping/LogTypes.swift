import EventLog

// The module `EventLog` has a class of the same name, so `EventLog.StreamPolicy` cannot name the
// module's type; files that also import StreamProtocol use these names instead.

/// The log's stream policy (not the wire's).
typealias LogStreamPolicy = StreamPolicy
/// The log's catalog entry of a stream (not the wire's).
typealias LogStreamInfo = StreamInfo
