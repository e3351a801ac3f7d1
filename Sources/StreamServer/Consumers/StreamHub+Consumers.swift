import EventLog
import StreamProtocol
import Synchronization

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
            return try consumerInfo(name, of: stream)
        }
        guard existing.count < limits.maximumConsumersPerStream else {
            throw ServerError(
                .limitExceeded,
                "stream \"\(stream)\" has \(existing.count) consumers, the most a stream may have; delete consumers it no longer needs first.")
        }
        let next = try log.startSequence(of: stream, from: config.start)
        let stored = try log.addConsumer(ConsumerRecord(stream: stream, streamCreated: state.created, name: name, config: config, nextSequence: next))
        guard stored.config == config else { throw consumerExists(name, of: stream) }
        return try consumerInfo(name, of: stream)
    }

    /// What consumer `name` of `stream` stands at: as this daemon serves it, else as the log keeps it
    /// (another daemon sharing the log may be serving it).
    func consumerInfo(_ name: String, of stream: String) throws -> ConsumerInfo {
        try StreamName.validate(stream)
        try Self.validateConsumerName(name)
        if let served = loadedConsumer(name, of: stream) { return served.info }
        guard let state = try log.catalogEntry(stream) else { throw notFound(stream) }
        guard let record = try log.consumers(of: stream).first(where: { $0.name == name }) else { throw consumerNotFound(name, of: stream) }
        return Self.info(of: record, lastSequence: state.lastSequence)
    }

    /// Every consumer of `stream`, by name.
    func listConsumers(of stream: String) throws -> [ConsumerInfo] {
        try StreamName.validate(stream)
        guard let state = try log.catalogEntry(stream) else { throw notFound(stream) }
        return try log.consumers(of: stream).map { record in
            loadedConsumer(record.name, of: stream)?.info ?? Self.info(of: record, lastSequence: state.lastSequence)
        }
    }

    /// Deletes consumer `name` of `stream`, ending its members.
    ///
    /// Taking it out of the table, closing it and deleting it from the log are one step between saves,
    /// as loads are (`servedConsumer`): a request either finds it served before, or finds it deleted.
    func deleteConsumer(_ name: String, of stream: String) throws {
        try StreamName.validate(stream)
        try Self.validateConsumerName(name)
        let deleted = try consumerSaver.betweenSaves { () throws -> Bool in
            let served = consumers.withLock { $0.removeValue(forKey: ConsumerKey(stream: stream, name: name)) }
            served?.close(reason: .error, message: "the consumer \"\(name)\" of stream \"\(stream)\" was deleted.")
            return try log.deleteConsumer(name, of: stream)
        }
        guard deleted else {
            if try log.catalogEntry(stream) == nil { throw notFound(stream) }
            throw consumerNotFound(name, of: stream)
        }
    }

    /// Stops serving every consumer (the daemon is stopping, its connections drained): stores each and
    /// gives up its lease, so another daemon sharing the log takes it over at once.
    func retireConsumers() {
        for consumer in consumers.withLock({ Array($0.values) }) { retire(consumer, onlyIfIdle: false) }
    }

    /// Stops serving `consumer` (no member is attached, unless `onlyIfIdle` is false): stores it and
    /// gives up its lease, so another daemon sharing the log may serve it.
    ///
    /// All of it runs between saves, as loads do (`servedConsumer`): a request that finds the consumer
    /// gone from the table loads it only once its last state is stored, never the save before, which
    /// would bring back events acknowledged since and keep them pending for another ack wait.
    func retire(_ consumer: ServedConsumer, onlyIfIdle: Bool = true) {
        let key = ConsumerKey(stream: consumer.stream, name: consumer.name)
        do {
            try consumerSaver.betweenSaves {
                guard consumers.withLock({ table in
                    guard table[key] === consumer, !onlyIfIdle || consumer.isIdle else { return false }
                    table[key] = nil
                    return true
                }) else { return }
                let record = consumer.close(reason: .unsubscribed, message: "")
                _ = try log.saveConsumers([record], under: consumerLease)
                try log.releaseConsumer(consumer.name, of: consumer.stream, under: consumerLease)
            }
        } catch {
            logger.warning("a durable consumer could not be stored as it was given up; its lease runs out by itself", metadata: [
                "stream": .string(consumer.stream), "consumer": .string(consumer.name), "error": .string(ServerError.from(error).message),
            ])
        }
    }

    /// Closes the consumers another daemon took over (a save of theirs found its lease gone).
    func lost(_ records: [ConsumerRecord]) {
        for record in records {
            let key = ConsumerKey(stream: record.stream, name: record.name)
            guard let consumer = consumers.withLock({ $0.removeValue(forKey: key) }) else { continue }
            logger.warning("another streamd serves this durable consumer now (this one's lease ran out); its members here were ended", metadata: [
                "stream": .string(record.stream), "consumer": .string(record.name),
            ])
            consumer.close(reason: .error, message: "another streamd sharing the database serves consumer \"\(record.name)\" of \"\(record.stream)\" now; attach again.")
        }
    }

    /// Moves consumer `name` of `stream` to `sequence`, forgetting its pending events.
    func resetConsumer(_ name: String, of stream: String, to sequence: UInt64) throws -> ConsumerInfo {
        try servedConsumer(name, of: stream).reset(to: sequence)
    }

    /// Gives event `sequence` of consumer `name` of `stream` back, for delivery after `delayMilliseconds`.
    func giveBack(_ sequence: UInt64, of name: String, on stream: String, delayMilliseconds: UInt64) throws {
        let consumer = try servedConsumer(name, of: stream)
        guard try consumer.giveBack(sequence, delayMilliseconds: delayMilliseconds) else {
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

    /// The consumer `name` of `stream` as this daemon serves it, if it does; with `holdingPlace`, a
    /// place is held in it for a member (see `servedConsumer`).
    private func loadedConsumer(_ name: String, of stream: String, holdingPlace: Bool = false) -> ServedConsumer? {
        consumers.withLock { table in
            guard let served = table[ConsumerKey(stream: stream, name: name)], Self.takes(served, holdingPlace: holdingPlace) else { return nil }
            return served
        }
    }

    /// Whether `consumer`, found in the table (under its lock), may be handed out: it is open, and a
    /// place was held in it when one is asked for.
    private static func takes(_ consumer: ServedConsumer, holdingPlace: Bool) -> Bool {
        holdingPlace ? consumer.holdPlace() : !consumer.isClosed
    }

    /// The consumer `name` of `stream` as the hub serves it: claimed under the daemon's lease and
    /// loaded from the log on first use, between saves (so after the store of a retire under way; may
    /// wait for a save in progress).
    ///
    /// - Parameter holdingPlace: a member is about to attach: a place is held for it as the consumer is
    ///   found (`ServedConsumer.holdPlace`), so the consumer is not given up for want of members before
    ///   the member attaches.
    /// - Throws: `consumer_not_found`, or `storage_unavailable` while another daemon sharing the log
    ///   serves it.
    func servedConsumer(_ name: String, of stream: String, holdingPlace: Bool = false) throws -> ServedConsumer {
        try StreamName.validate(stream)
        try Self.validateConsumerName(name)
        if let served = loadedConsumer(name, of: stream, holdingPlace: holdingPlace) { return served }
        return try consumerSaver.betweenSaves { try loadConsumer(name, of: stream, holdingPlace: holdingPlace) }
    }

    /// `servedConsumer`'s load from the log; runs between saves.
    private func loadConsumer(_ name: String, of stream: String, holdingPlace: Bool) throws -> ServedConsumer {
        let key = ConsumerKey(stream: stream, name: name)
        if let served = loadedConsumer(name, of: stream, holdingPlace: holdingPlace) { return served }
        guard let state = try log.catalogEntry(stream) else { throw notFound(stream) }
        guard let record = try log.claimConsumer(name, of: stream, under: consumerLease) else {
            guard try log.consumers(of: stream).contains(where: { $0.name == name }) else { throw consumerNotFound(name, of: stream) }
            throw ServerError(
                .storageUnavailable,
                "consumer \"\(name)\" of \"\(stream)\" is served by another streamd sharing this database; attach its members through that daemon, or retry: a daemon gives a consumer up 2 s after its last member left or as it stops, and one that died within \(consumerLease.duration).")
        }
        let made = ServedConsumer(record: record, lastSequence: state.lastSequence, hub: self)
        let (served, isNew) = consumers.withLock { table -> (ServedConsumer, Bool) in
            if let existing = table[key], Self.takes(existing, holdingPlace: holdingPlace) { return (existing, false) }
            if holdingPlace { _ = made.holdPlace() }
            table[key] = made
            return (made, true)
        }
        if isNew {
            do {
                try made.start()
            } catch {
                // A CONSUME may have found it in the table meanwhile: its member ends, and the claim
                // is given back, so that the consumer is never served twice.
                consumers.withLock { if $0[key] === made { $0[key] = nil } }
                made.close(reason: .error, message: "consumer \"\(name)\" of \"\(stream)\" could not be served: \(ServerError.from(error).message)")
                try? log.releaseConsumer(name, of: stream, under: consumerLease)
                throw error
            }
        }
        return served
    }

    private func consumerNotFound(_ name: String, of stream: String) -> ServerError {
        ServerError(.consumerNotFound, "stream \"\(stream)\" has no consumer named \"\(name)\"; add it with ADD_CONSUMER (streamctl consumer add) first.")
    }

    /// The figures of a consumer nobody here serves, as the log keeps it.
    private static func info(of record: ConsumerRecord, lastSequence: UInt64) -> ConsumerInfo {
        ConsumerState(record, lastSequence: lastSequence, now: 0).info(stream: record.stream, name: record.name)
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

/// Lets the hub's saver, made before the hub, reach the hub, without holding it (the hub holds the
/// saver).
///
/// Thread-safety: Sendable; its weak reference is under a mutex.
final class LostConsumers: Sendable {
    private struct Weak {
        weak var hub: StreamHub?
    }

    private let reference = Mutex(Weak())

    var hub: StreamHub? {
        get { reference.withLock { $0.hub } }
        set { reference.withLock { $0.hub = newValue } }
    }
}
