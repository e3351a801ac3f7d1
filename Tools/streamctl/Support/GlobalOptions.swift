import ArgumentParser

/// The options every verb takes: where the daemon is, and whether to print JSON.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The daemon's Unix domain socket (env STREAMD_SOCKET).",
        discussion: "Default: $XDG_RUNTIME_DIR/streamd.sock, else /tmp/streamd-<uid>/streamd.sock, as streamd uses.",
        valueName: "path"))
    var socket: String?

    @Option(name: .customLong("daemon-user"), help: ArgumentHelp(
        "Also trust a daemon running as this user (env STREAMD_DAEMON_USER).",
        discussion: "streamctl sends nothing to a daemon that runs as another user than you or root, unless named here.",
        valueName: "name|uid"))
    var daemonUser: String?

    @Flag(name: .long, help: "Print one JSON document on standard output instead of text (see schemas/streamctl.schema.json).")
    var json = false
}

extension GlobalOptions {
    /// These options, with `outer`'s (given before the verb) where these were not given.
    func merged(with outer: GlobalOptions) -> GlobalOptions {
        var merged = self
        merged.socket = socket ?? outer.socket
        merged.daemonUser = daemonUser ?? outer.daemonUser
        merged.json = json || outer.json
        return merged
    }
}
