import ArgumentParser

/// `streamctl consumer …`: the durable consumers of a stream.
struct ConsumerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consumer",
        abstract: "Add, list, show, reset and remove the durable consumers of a stream (read one with `streamctl next`).",
        discussion: """
            A durable consumer is a named reader the daemon keeps beside its stream: where it is, which events \
            it delivered and awaits acknowledgements for, how often. Any number of programs attach to one as its \
            members and share its events, each event going to one member.
            """,
        subcommands: [ConsumerAddCommand.self, ConsumerListCommand.self, ConsumerInfoCommand.self, ConsumerResetCommand.self, ConsumerRemoveCommand.self])

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after `consumer`, or else before it.
    var options: GlobalOptions { global.merged(with: root.global) }
}
