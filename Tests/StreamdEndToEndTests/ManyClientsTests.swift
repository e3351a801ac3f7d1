import Foundation
import StreamClient
import StreamProtocol
import StreamdTestSupport
import Testing

/// Several publishers and subscribers on one daemon at once.
@Suite struct ManyClientsTests {
    @Test func everySubscriberSeesEveryEventFromItsStartExactlyOnceAndInOrder() async throws {
        let daemon = try DaemonFixture()
        let publishers = 4, perPublisher = 2000
        let total = UInt64(publishers * perPublisher)
        let admin = try await StreamConnection.connect(socketPath: daemon.socket)
        try await admin.createStream("many")
        _ = try await admin.append(contentsOf: (1...100).map { bytes("seed-\($0)") }, to: "many")
        let seeded: UInt64 = 100
        let last = seeded + total

        // Five subscribers before the load, each on its own connection, from different places.
        let starts: [(StartPosition, UInt64)] = [(.all, 1), (.from(sequence: 50), 50), (.last(10), seeded - 9), (.newOnly, seeded + 1), (.from(sequence: seeded + 1), seeded + 1)]
        var subscribers: [(connection: StreamConnection, collector: Collector, first: UInt64)] = []
        for (start, first) in starts {
            let connection = try await StreamConnection.connect(socketPath: daemon.socket)
            let collector = Collector()
            connection.subscribe("many", from: start).start(collector.observer)
            subscribers.append((connection, collector, first))
        }
        #expect(try await eventually { try await admin.streamInfo("many").subscribers == UInt32(starts.count) })

        let connections = try await (0..<publishers).asyncMap { _ in try await StreamConnection.connect(socketPath: daemon.socket) }
        let load = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (publisher, connection) in connections.enumerated() {
                    group.addTask {
                        var index = 0
                        while index < perPublisher {
                            if index % 500 < 400 {
                                _ = try await connection.append(bytes("p\(publisher)-\(index)"), to: "many")
                                index += 1
                            } else {
                                _ = try await connection.append(contentsOf: (index..<index + 50).map { bytes("p\(publisher)-\($0)") }, to: "many")
                                index += 50
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        // The sixth starts late, from the beginning, while the load runs.
        #expect(try await eventually { try await admin.streamInfo("many").lastSequence >= seeded + total / 2 })
        let lateConnection = try await StreamConnection.connect(socketPath: daemon.socket)
        let late = Collector()
        lateConnection.subscribe("many", from: .all).start(late.observer)
        subscribers.append((lateConnection, late, 1))
        try await load.value

        for (number, subscriber) in subscribers.enumerated() {
            let expected = Int(last - subscriber.first + 1)
            #expect(await subscriber.collector.waitForValues(expected), "subscriber \(number) got \(subscriber.collector.count) of \(expected)")
            try requireContiguous(subscriber.collector.values.map(\.sequence), subscriber.first...last, "subscriber \(number)")
            #expect(subscriber.collector.terminal == nil)
        }
        // Each publisher's events appear in the order it published them.
        let everything = late.values.dropFirst(Int(seeded)).map { text($0.payload) }
        for publisher in 0..<publishers {
            let own = everything.filter { $0.hasPrefix("p\(publisher)-") }
            #expect(own == (0..<perPublisher).map { "p\(publisher)-\($0)" })
        }
        // Nothing arrives beyond the last event.
        try await admin.ping()
        #expect(subscribers.allSatisfy { $0.collector.count == Int(last - $0.first + 1) })
        for subscriber in subscribers { subscriber.connection.close() }
        for connection in connections + [admin] { connection.close() }
    }
}
