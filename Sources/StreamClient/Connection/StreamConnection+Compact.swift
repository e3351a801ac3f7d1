import StreamProtocol

extension StreamConnection {
    /// Asks the daemon to give the space that deletions freed inside its database back to the file
    /// system now, and returns the sizes of its database and WAL before and after.
    ///
    /// A database the daemon created is compacted in steps between commits; one made by an older
    /// streamd is rewritten once, and publishes wait until that ends (`rewrote` says which).
    ///
    /// - Throws: `.server(code: .unsupportedVersion, …)` without sending anything when the daemon
    ///   speaks protocol version 2 or older (it has no `COMPACT`); `.server(code: .permissionDenied, …)`
    ///   without the admin right on every stream; `.server(code: .storageFull, …)` when there is no
    ///   room to compact.
    public func compact() async throws -> ServerMessage.Compaction {
        try require(
            version: 3, for: "COMPACT",
            otherwise: "upgrade and restart the daemon, or stop it and compact its file with `streamctl compact --db PATH`.")
        let reply = try await request(.compact)
        guard case let .compacted(compaction) = reply else {
            throw StreamClientError.protocolViolation("expected COMPACTED, got \(reply)")
        }
        return compaction
    }
}
