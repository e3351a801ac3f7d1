import EventLog
import StreamProtocol

/// A consumer's place in the hub's table: its stream and its name.
struct ConsumerKey: Hashable, Sendable {
    var stream: String
    var name: String
}

extension StreamHub {
    /// Adds consumer `name` to `stream` with `config`; adding one that exists with the same
    /// configuration returns it.
    func addConsumer(_ name: String, to stream: String, config wanted: ConsumerConfig) throws -> ConsumerInfo {
        try StreamName.validate(stream)
        try Self.validateConsumerName(name)
        var config = wanted
        // Kept in whole milliseconds, as the wire and the log keep it: compared so too.
        config.ackWait = .milliseconds(Int64(clamping: wanted.ackWaitMilliseconds))
        if let problem = config.problem { throw ServerError(.invalidArgument, "consumer \"\(name)\" of \"\(stream)\": \(problem)") }
        if let deadLetter = config.deadLetter {
            try StreamName.validate(deadLetter)
            guard deadLetter != stream else {
                throw ServerError(.invalidArgument, "consumer \"\(name)\" cannot use its own stream \"\(stream)\" as its dead-letter stream; name another stream.")
            }
        }
        guard let state = try log.catalogEntry(stream) else { throw notFound(stream) }
        let existing = try log.consumers(of: stream)
        if let found = existing.first(where: { $0.name == name }) {
            guard found.config == config else { throw consumerExists(name, of: stream) }
            return try servedConsumer(name, of: stream).info
        }
        guard existing.count < limits.maximumConsumersPerStream else {
            throw ServerError(
                .limitExceeded,
                "stream \"\(stream)\" has \(existing.count) consumers, the most a stream may have; delete consumers it no longer needs first.")
        }
        let next = try log.startSequence(of: stream, from: config.start)
        let stored = try log.addConsumer(ConsumerRecord(stream: stream, streamCreated: state.created, name: name, config: config, nextSequence: next))
        guard stored.config == config else { throw consumerExists(name, of: stream) }
        return try servedConsumer(name, of: stream).info
    }

    /// What consumer `name` of `stream` stands at.
    func consumerInfo(_ name: String, of stream: String) throws -> ConsumerInfo {
        try servedConsumer(name, of: stream).info
    }

    /// Every consumer of `stream`, by name.
    func listConsumers(of stream: String) throws -> [ConsumerInfo] {
        try StreamName.validate(stream)
        guard try log.catalogEntry(stream) != nil else { throw notFound(stream) }
        return try log.consumers(of: stream).map { try servedConsumer($0.name, of: stream).info }
    }

    /// Deletes consumer `name` of `stream`, ending its members.
    func deleteConsumer(_ name: String, of stream: String) throws {
        let consumer = try servedConsumer(name, of: stream)
        consumers.withLock { $0[ConsumerKey(stream: stream, name: name)] = nil }
        consumer.close(reason: .error, message: "the consumer \"\(name)\" of stream \"\(stream)\" was deleted.")
        _ = try consumerSaver.betweenSaves { try log.deleteConsumer(name, of: stream) }
    }

    /// Moves consumer `name` of `stream` to `sequence`, forgetting its pending events.
    func resetConsumer(_ name: String, of stream: String, to sequence: UInt64) throws -> ConsumerInfo {
        try servedConsumer(name, of: stream).reset(to: sequence)
    }

    /// Gives event `sequence` of consumer `name` of `stream` back, for delivery after `delayMilliseconds`.
    func giveBack(_ sequence: UInt64, of name: String, on stream: String, delayMilliseconds: UInt64) throws {
        let consumer = try servedConsumer(name, of: stream)
        guard consumer.giveBack(sequence, delayMilliseconds: delayMilliseconds) else {
            throw ServerError(
                .invalidArgument,
                "event \(sequence) is not pending with consumer \"\(name)\" of \"\(stream)\" (acknowledged already, or never delivered); nothing to give back.")
        }
    }

    /// Closes the consumers of `stream` (deleted), ending their members.
    func closeConsumers(of stream: String) {
        let closing = consumers.withLock { table -> [ServedConsumer] in
            let keys = table.keys.filter { $0.stream == stream }
            return keys.compactMap { table.removeValue(forKey: $0) }
        }
        for consumer in closing { consumer.close(reason: .streamDeleted, message: "the stream \"\(stream)\" was deleted.") }
    }

    /// The consumer `name` of `stream` as the hub serves it, loaded from the log on first use.
    func servedConsumer(_ name: String, of stream: String) throws -> ServedConsumer {
        try StreamName.validate(stream)
        try Self.validateConsumerName(name)
        let key = ConsumerKey(stream: stream, name: name)
        if let served = consumers.withLock({ $0[key] }), !served.isClosed { return served }
        guard let state = try log.catalogEntry(stream) else { throw notFound(stream) }
        guard let record = try log.consumers(of: stream).first(where: { $0.name == name }) else {
            throw ServerError(
                .consumerNotFound, "stream \"\(stream)\" has no consumer named \"\(name)\"; add it with ADD_CONSUMER (streamctl consumer add) first.")
        }
        let made = ServedConsumer(record: record, lastSequence: state.lastSequence, hub: self)
        let (served, isNew) = consumers.withLock { table -> (ServedConsumer, Bool) in
            if let existing = table[key], !existing.isClosed { return (existing, false) }
            table[key] = made
            return (made, true)
        }
        if isNew {
            do {
                try made.start()
            } catch {
                consumers.withLock { if $0[key] === made { $0[key] = nil } }
                throw error
            }
        }
        return served
    }

    private func consumerExists(_ name: String, of stream: String) -> ServerError {
        ServerError(
            .consumerExists,
            "stream \"\(stream)\" has a consumer named \"\(name)\" with another configuration; delete it first, or pick another name.")
    }

    /// Consumer names follow the rules of stream names.
    static func validateConsumerName(_ name: String) throws {
        do {
            try StreamName.validate(name)
        } catch {
            throw ServerError(.invalidArgument, error.message.replacingOccurrences(of: "stream name", with: "consumer name"))
        }
    }
}
