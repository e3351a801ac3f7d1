import EventLog
import Foundation
import StreamClient
import StreamProtocol
import StreamdTestSupport
import Testing

/// A durable consumer on a PostgreSQL database that two daemons share (issue 19 on issue 18's store):
/// one daemon serves it at a time, so no event goes to two members at once, and the other takes it
/// over, where the first left it, once the first gave it up or died.
@Suite(.enabled(if: PostgresServer.unavailableReason == nil, "needs root and Debian's postgresql package"))
struct PostgresConsumerDaemonsTests {
    /// Two daemons on one new database, a connection to each, and the stream "jobs" of `events`
    /// events with the consumer "workers" waiting `ackWait` for acknowledgements.
    private struct TwoDaemons {
        let database: String
        let first: DaemonProcess
        let second: DaemonProcess
        let onFirst: StreamConnection
        let onSecond: StreamConnection
        /// The daemons' socket directories, kept while they run.
        private let directories: [ShortTemporaryDirectory]

        init(events: Int, ackWait: Duration) async throws {
            let url = try PostgresServer.shared.get().makeDatabase()
            database = String(url.split(separator: "/").last!)
            directories = [try ShortTemporaryDirectory(), try ShortTemporaryDirectory()]
            func daemon(_ directory: ShortTemporaryDirectory) throws -> DaemonProcess {
                let daemon = try DaemonProcess(["--socket", directory.socket, "--db", url])
                try daemon.waitForError(containing: "listening")
                return daemon
            }
            first = try daemon(directories[0])
            second = try daemon(directories[1])
            onFirst = try await StreamConnection.connect(socketPath: directories[0].socket)
            onSecond = try await StreamConnection.connect(socketPath: directories[1].socket)
            _ = try await onFirst.append(contentsOf: (1...events).map { bytes("job \($0)") }, to: "jobs")
            try await onSecond.addConsumer("workers", on: "jobs", config: ConsumerConfig(ackWait: ackWait))
        }

        func stop() {
            onFirst.close()
            onSecond.close()
            first.signal(SIGKILL)
            second.signal(SIGTERM)
        }
    }

    @Test func oneDaemonServesAConsumerAtATimeAndTheOtherGoesOnWhereItLeftIt() async throws {
        let daemons = try await TwoDaemons(events: 10, ackWait: .seconds(2))
        defer { daemons.stop() }
        let (onFirst, onSecond, second) = (daemons.onFirst, daemons.onSecond, daemons.second)

        // A member through the first daemon takes and acknowledges three events, and stays.
        let taken = LockedList<Delivery<[UInt8]>>()
        let member = onFirst.consumer("workers", on: "jobs", credit: 3, refillingCredit: false).start { event in
            if case let .value(delivery) = event {
                delivery.ack()
                taken.append(delivery)
            }
        }
        #expect(await eventually { taken.all.count == 3 })
        #expect(try await eventually { try await onSecond.consumerInfo("workers", on: "jobs").ackFloor == 3 }, "the second daemon reads what the first stored")

        // The second daemon refuses a member while the first serves the consumer.
        let refused = await #expect(throws: StreamClientError.self) {
            for try await _ in onSecond.consumer("workers", on: "jobs").values { break }
        }
        guard case let .server(code, message) = refused else { Issue.record("\(String(describing: refused))"); return }
        #expect(code == .storageUnavailable && message.contains("is served by another streamd sharing this database"), "\(message)")

        // The first daemon's member leaves; two seconds later the first gives the consumer up, and a
        // member through the second goes on after sequence 3.
        member.dispose()
        var rest: [UInt64] = []
        let deadline = ContinuousClock.now + .seconds(20)
        while rest.isEmpty, ContinuousClock.now < deadline {
            do {
                for try await delivery in onSecond.consumer("workers", on: "jobs").values {
                    try await delivery.ackSync()
                    rest.append(delivery.sequence)
                    if delivery.sequence == 10 { break }
                }
            } catch StreamClientError.server(.storageUnavailable, _) {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        #expect(rest == Array(4...10), "the second daemon went on where the first left the consumer")

        // Now the second serves it; when it dies without giving it up, the first takes it over once the
        // lease runs out, with every acknowledgement the second answered.
        _ = try await onFirst.append(contentsOf: (11...12).map { bytes("job \($0)") }, to: "jobs")
        let handedOut = ContinuousClock.now
        let holding = onSecond.consumer("workers", on: "jobs").start { _ in }
        #expect(try await eventually { try await onFirst.consumerInfo("workers", on: "jobs").pending == 2 })
        second.signal(SIGKILL)
        _ = second.waitForExit()
        // A slow machine may take the ack wait (2 s) to get here: the second daemon then gave the two
        // to its member again, and the first gives them a third time.
        let heldTwice = ContinuousClock.now - handedOut >= .seconds(2)
        holding.dispose()
        var again: [(UInt64, UInt32)] = []
        let later = ContinuousClock.now + .seconds(40)
        while again.count < 2, ContinuousClock.now < later {
            do {
                for try await delivery in onFirst.consumer("workers", on: "jobs").values {
                    try await delivery.ackSync()
                    again.append((delivery.sequence, delivery.deliveries))
                    if again.count == 2 { break }
                }
            } catch StreamClientError.server(.storageUnavailable, _) {
                try await Task.sleep(for: .milliseconds(500))
            }
        }
        #expect(again.map(\.0) == [11, 12] && again.allSatisfy { heldTwice ? $0.1 >= 2 : $0.1 == 2 }, "\(again)")
        #expect(try await onFirst.consumerInfo("workers", on: "jobs").ackFloor == 12)
    }

    /// A daemon stopped with SIGTERM gives its consumers up as it stops: a member through the other
    /// daemon is taken at once, not after the lease runs out.
    @Test func aDaemonThatStopsGivesItsConsumersUpAtOnce() async throws {
        let daemons = try await TwoDaemons(events: 3, ackWait: .seconds(1))
        defer { daemons.stop() }
        let (onFirst, onSecond, first) = (daemons.onFirst, daemons.onSecond, daemons.first)
        let holding = onFirst.consumer("workers", on: "jobs").start { _ in }
        #expect(try await eventually { try await onSecond.consumerInfo("workers", on: "jobs").pending == 3 })
        first.signal(SIGTERM)
        #expect(first.waitForExit() == 0)
        holding.dispose()
        onFirst.close()
        // Given up, not left to lapse: nobody holds it, and the other daemon takes it on the first try.
        let server = try PostgresServer.shared.get()
        #expect(try server.sql("SELECT coalesce(owner, 'nobody') FROM streamd.consumers", database: daemons.database) == "nobody\n")
        var sequences: [UInt64] = []
        for try await delivery in onSecond.consumer("workers", on: "jobs").values {
            try await delivery.ackSync()
            sequences.append(delivery.sequence)
            if sequences.count == 3 { break }
        }
        #expect(sequences == [1, 2, 3])
    }
}
