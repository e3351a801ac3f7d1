import ArgumentParser

/// The stream and the consumer a `consumer` verb names, checked against the naming rules.
struct ConsumerNames: ParsableArguments {
    @Argument(help: "The stream.", completion: StreamNameCompletion.kind)
    var stream: String

    @Argument(help: "The consumer (the characters a stream name may have).")
    var name: String

    func validate() throws {
        try Daemon.validate(name: stream)
        try Daemon.validate(consumer: name)
    }
}
