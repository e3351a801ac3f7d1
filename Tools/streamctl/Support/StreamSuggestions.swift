import StreamClient

/// "Did you mean" for a stream the daemon does not know: the closest names among the daemon's streams.
/// Stateless.
enum StreamSuggestions {
    /// The failure for the missing stream `name`, with up to three close names of existing streams.
    ///
    /// The names come from the paged listing (`listStreams`, at most the daemon's stream limit of
    /// 100 000 names), and `Suggestions` skips most of them by length alone; if the listing fails the
    /// failure simply carries no suggestion.
    static func failure(missing name: String, connection: StreamConnection) async -> CtlFailure {
        let names = (try? await connection.listStreams())?.map(\.name) ?? []
        let suggestions = Suggestions.closest(to: name, among: names)
        return CtlFailure(
            Daemon.missingStreamMessage(name, socket: connection.socketPath, suggestions: suggestions),
            code: "stream_not_found", suggestions: suggestions)
    }
}
