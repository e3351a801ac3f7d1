// The stream vocabulary (policies, positions, stream info, receipts, codecs, `StreamFailure`) and the
// reactive types come with the client, so `import StreamClient` alone is enough for the remote door.
@_exported import StreamModel
