// The stream vocabulary (policies, positions, stream info, receipts, codecs, `StreamFailure`) and the
// reactive types come with the log, so `import EventLog` alone is enough for the persistent door.
@_exported import StreamModel
