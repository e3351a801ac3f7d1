// The messages carry the stream vocabulary (policies, positions, stream info), so it comes with them.
@_exported import StreamModel
