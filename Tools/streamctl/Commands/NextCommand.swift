import ArgumentParser
import Foundation
import StreamClient
import StreamProtocol
import Synchronization

/// `streamctl next STREAM --consumer NAME`: take the next events of a durable consumer.
struct NextCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "Print the next events of a durable consumer, as one of its members, and acknowledge them.",
        discussion: """
            Waits up to --wait for --count events (fewer if fewer arrive in time; none is a failure). Each event \
            printed is acknowledged, and next returns once the daemon has stored the acknowledgements; with \
            --no-ack they stay pending and are delivered again after the consumer's ack wait. Output: each \
            payload as is, one per line (default); --ndjson, one JSON object per line with sequence, timestamp, \
            deliveries and payload; --json, one document holding them all.
            """)

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    private var options: GlobalOptions { global.merged(with: root.global) }

    @Argument(help: "The stream.", completion: StreamNameCompletion.kind)
    var stream: String

    @Option(name: .long, help: ArgumentHelp("The durable consumer to read.", valueName: "name"))
    var consumer: String

    @Option(name: [.customShort("n"), .long], help: ArgumentHelp("How many events to take (default 1).", valueName: "N"))
    var count: UInt32 = 1

    @Option(name: .long, help: ArgumentHelp("How long to wait for them (default 5s).", valueName: "duration"))
    var wait = "5s"

    @Flag(name: .customLong("no-ack"), help: "Leave the events unacknowledged: they are delivered again after the ack wait.")
    var noAck = false

    @Flag(name: .long, help: "Print one JSON object per event and line.")
    var ndjson = false

    private struct Record: Encodable {
        var event: EventRecord
        var deliveries: UInt32

        func encode(to encoder: any Encoder) throws {
            try event.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(deliveries, forKey: .deliveries)
        }

        private enum Key: String, CodingKey { case deliveries }
    }

    private struct Document: Encodable {
        var stream: String
        var consumer: String
        var acknowledged: Bool
        var events: [Record]
    }

    func validate() throws {
        try Daemon.validate(name: stream)
        try Daemon.validate(consumer: consumer, "--consumer")
        guard count > 0 else { throw ValidationError("--count must be at least 1.") }
        if options.json, ndjson { throw ValidationError("--json and --ndjson exclude each other.") }
        _ = try Parsing.milliseconds(wait, option: "--wait")
    }

    func run() async throws {
        let patience = try Parsing.milliseconds(wait, option: "--wait")
        try await Daemon.run(options) { connection in
            let taken = Taken()
            // Credit for `count`, never granted again: the daemon hands this member no more than it prints.
            let membership = connection.consumer(consumer, on: stream, credit: count, refillingCredit: false).start { event in
                switch event {
                case let .value(delivery): taken.add(delivery)
                case let .failed(error): taken.fail(error)
                case .completed, .interrupted: break
                }
            }
            defer { membership.dispose() }
            let deadline = ContinuousClock.now + .milliseconds(Int64(clamping: patience))
            while taken.deliveries.count < Int(count), taken.failure == nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            if let failure = taken.failure { throw failure }
            let deliveries = Array(taken.deliveries.prefix(Int(count)))
            guard !deliveries.isEmpty else {
                throw CtlFailure(
                    "no event of consumer \(consumer) on \(stream) arrived within \(Formatting.duration(milliseconds: patience)); it may have none left (see `streamctl consumer info \(stream) \(consumer)`).",
                    code: "timeout")
            }
            // Acknowledged before the membership ends, so no credit it gives back is wasted.
            if !noAck {
                for delivery in deliveries.dropLast() { delivery.ack() }
                try await deliveries.last?.ackSync()
            }
            let records = deliveries.map {
                Record(event: EventRecord(StoredEvent(sequence: $0.sequence, timestamp: $0.timestamp, payload: $0.value)), deliveries: $0.deliveries)
            }
            if options.json { return try Output.json(Document(stream: stream, consumer: consumer, acknowledged: !noAck, events: records)) }
            let buffer = OutputBuffer()
            for (record, delivery) in zip(records, deliveries) {
                if ndjson { try buffer.append(Output.encode(record) + [0x0A]) } else { try buffer.append(delivery.value + [0x0A]) }
            }
            try buffer.flush()
        }
    }
}

/// What the membership delivered, or how it failed; filled on the connection's event loop, read by the command.
///
/// Thread-safety: Sendable; its state is under a mutex.
private final class Taken: Sendable {
    private let state = Mutex<(deliveries: [Delivery<[UInt8]>], failure: StreamClientError?)>(([], nil))

    func add(_ delivery: Delivery<[UInt8]>) { state.withLock { $0.deliveries.append(delivery) } }

    func fail(_ error: StreamClientError) { state.withLock { $0.failure = error } }

    var deliveries: [Delivery<[UInt8]>] { state.withLock { $0.deliveries } }

    var failure: StreamClientError? { state.withLock { $0.failure } }
}
