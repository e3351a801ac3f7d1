// The reactive types every door takes and returns (`SignalProducer`, `Signal`, disposables, subjects,
// `ReplayCapacity`) come with the stream vocabulary, so `import EventLog` or `import StreamClient` alone
// is enough.
@_exported import Reactive
