import StreamProtocol

extension StreamConnection {
    /// Throws `.server(code: .unsupportedVersion, …)` unless the daemon speaks protocol `version` or
    /// newer, where `feature` came; the caller then sends nothing. `advice` says what to do instead.
    func require(
        version: UInt16, for feature: String, otherwise advice: String = "upgrade and restart the daemon."
    ) throws(StreamClientError) {
        guard protocolVersion < version else { return }
        throw StreamClientError.server(
            code: .unsupportedVersion,
            message: "the daemon speaks protocol version \(protocolVersion), but \(feature) came with version \(version); \(advice)")
    }
}
