import ArgumentParser
import StreamClient
import StreamProtocol

/// `streamctl rm STREAM`: delete a stream and its events.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete a stream and all its events; its subscribers are told. A new stream of that name starts at sequence 1.",
        discussion: """
            On a terminal, rm first shows what it will delete and asks; only y or yes deletes (anything else \
            exits 1 and deletes nothing). --force deletes without asking. When standard input is not a terminal \
            (a script, a pipe) nobody can answer, so rm deletes without asking, as it always did.
            """)

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }

    @Argument(help: "The stream.", completion: StreamNameCompletion.kind)
    var stream: String

    @Flag(name: [.short, .long], help: "Delete without asking, even on a terminal.")
    var force = false

    struct Summary: Encodable {
        var stream: String
        var deleted: Bool
        /// Absent when the daemon could not read the stream's info (a damaged stream).
        var events: UInt64?
    }

    func validate() throws { try Daemon.validate(name: stream) }

    func run() async throws {
        try await Daemon.run(options) { connection in
            // Deleting is how a damaged stream is got rid of, so an unreadable info must not stop it.
            let info = try await TruncateCommand.infoIfReadable(stream, connection)
            if !force, Confirmation.inputIsTerminal {
                let holding = info.map { "\(Formatting.count($0.count, "event")), \(Formatting.bytes($0.storedBytes)) stored" }
                    ?? "its event count could not be read: the daemon reports its storage as damaged"
                guard Confirmation.ask("Delete stream \(stream) (\(holding)) and all its events? This cannot be undone.") else {
                    throw CtlFailure("\(stream) was not deleted: the answer was not y or yes (give --force to delete without asking).", code: "aborted")
                }
            }
            do {
                try await connection.deleteStream(stream)
            } catch let error as StreamClientError {
                throw CtlFailure("cannot delete \(stream): \(Daemon.message(for: error, socket: connection.socketPath))")
            }
            let summary = Summary(stream: stream, deleted: true, events: info?.count)
            if options.json { return try Output.json(summary) }
            if let count = info?.count {
                try Output.line("deleted \(stream) (\(Formatting.count(count, "event")))")
            } else {
                try Output.line("deleted \(stream) (its event count could not be read: the daemon reports its storage as damaged)")
            }
        }
    }
}
