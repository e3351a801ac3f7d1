import Foundation
import StreamClient
import StreamProtocol
import StreamdTestSupport
import Synchronization
import Testing

/// Thousands of hostile connections against one running daemon, while a good client works beside them.
@Suite struct LiveSocketFuzzTests {
    /// Cases to run: `STREAMD_FUZZ_CASES`, or 5000.
    static let caseCount = ProcessInfo.processInfo.environment["STREAMD_FUZZ_CASES"].flatMap(Int.init) ?? 5000
    /// Connections open at once.
    static let workers = 4

    @Test func everyBadConnectionGetsTheRightErrorAndIsClosedWhileAGoodClientLosesNothing() async throws {
        let daemon = try DaemonFixture()
        let good = try await StreamConnection.connect(socketPath: daemon.socket)
        try await good.createStream("good")
        let collector = Collector()
        let subscription = good.subscribe("good", from: .all).start(collector.observer)
        let stop = Atomic<Bool>(false)
        let publishing = Task {
            var acknowledged: [(UInt64, String)] = []
            var index = 0
            while !stop.load(ordering: .relaxed) {
                if index % 4 == 3 {
                    let payloads = (0..<10).map { "g\(index)-\($0)" }
                    let acks = try await good.append(contentsOf: payloads.map(bytes), to: "good")
                    acknowledged += zip(acks.map(\.sequence), payloads)
                } else {
                    let payload = "g\(index)"
                    acknowledged.append((try await good.append(bytes(payload), to: "good").sequence, payload))
                }
                index += 1
            }
            return acknowledged
        }

        let failures = Mutex<[String]>([])
        let byKind = Mutex<[String: Int]>([:])
        let started = ContinuousClock.now
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let group = DispatchGroup()
            for worker in 0..<Self.workers {
                group.enter()
                // Threads of their own: blocking socket calls on the concurrency pool would starve the good client.
                Thread.detachNewThread {
                    var random = SeededGenerator(seed: 2026 + UInt64(worker))
                    for number in stride(from: worker, to: Self.caseCount, by: Self.workers) {
                        do {
                            let bad = try BadConnection.make(number, &random)
                            do {
                                try Self.check(bad, socket: daemon.socket)
                                byKind.withLock { $0[bad.kind, default: 0] += 1 }
                            } catch {
                                failures.withLock { $0.append("case \(number) (\(bad.kind), \(bad.bytes.prefix(48))): \(error)") }
                            }
                        } catch {
                            failures.withLock { $0.append("case \(number) could not be made: \(error)") }
                        }
                    }
                    group.leave()
                }
            }
            group.notify(queue: .global()) { done.resume() }
        }
        let fuzzing = ContinuousClock.now - started
        stop.store(true, ordering: .relaxed)
        let acknowledged = try await publishing.value

        let problems = failures.withLock { $0 }
        #expect(problems.isEmpty, "\(problems.count) of \(Self.caseCount) bad connections misbehaved; first: \(problems.prefix(5))")
        let counted = byKind.withLock { $0 }
        print("live fuzz: \(Self.caseCount) bad connections in \(fuzzing), \(acknowledged.count) good events; by kind: \(counted)")
        for kind in BadConnection.kinds where Self.caseCount >= BadConnection.kinds.count {
            #expect(counted[kind, default: 0] > 0, "no \(kind) case passed")
        }

        // The good client's events: every acknowledged one, once, in order, and nothing else.
        #expect(acknowledged.count > 0)
        #expect(acknowledged.map(\.0) == (1...UInt64(acknowledged.count)).map { $0 })
        #expect(await collector.waitForValues(acknowledged.count))
        try await good.ping()
        #expect(collector.values.map(\.sequence) == acknowledged.map(\.0))
        #expect(collector.values.map { text($0.payload) } == acknowledged.map(\.1))
        #expect(try await good.streamInfo("good").lastSequence == UInt64(acknowledged.count))
        // The vanished subscribers are gone: only the good client's subscription is left.
        #expect(try await eventually { try await good.streamInfo("good").subscribers == 1 })
        subscription.dispose()
        good.close()

        // Still alive and answering a newcomer.
        #expect(daemon.daemon?.process.isRunning == true)
        let newcomer = try await StreamConnection.connect(socketPath: daemon.socket)
        try await newcomer.ping()
        #expect(try await newcomer.listStreams().map(\.name).contains("good"))
        newcomer.close()
        #expect(daemon.stop(with: SIGTERM) == 0)
    }

    /// Runs one bad connection and throws what the daemon did wrong.
    private static func check(_ bad: BadConnection, socket: String) throws {
        let connection = try FuzzSocket(path: socket)
        // Half the cases arrive in small pieces, so the daemon also sees frames cut across reads.
        if bad.bytes.count % 2 == 0 {
            var offset = 0
            while offset < bad.bytes.count {
                let end = min(bad.bytes.count, offset + 1 + (offset * 7 + bad.bytes.count) % 13)
                guard connection.write(Array(bad.bytes[offset..<end])) else { break }
                offset = end
            }
        } else {
            connection.write(bad.bytes)
        }
        var frames: [Received] = []
        func expectWelcome() throws {
            guard bad.greets else { return }
            guard case .success(let first) = try connection.next(), case .welcome = first.message else {
                throw TestFailure("no WELCOME first")
            }
        }
        switch bad.expectation {
        case let .closesWith(code, requestID):
            try expectWelcome()
            frames = try connection.framesUntilClosed()
            guard frames.count == 1, frames[0].requestID == requestID, frames[0].message.errorCode == code else {
                throw TestFailure("expected ERROR \(code) for request \(requestID) and a close, got \(frames)")
            }
        case let .answersAndStaysOpen(code, requestID):
            try expectWelcome()
            guard case .success(let reply) = try connection.next(), reply.requestID == requestID, reply.message.errorCode == code else {
                throw TestFailure("expected ERROR \(code) for request \(requestID)")
            }
            connection.write(try ClientMessage.ping(nonce: 42).encoded(requestID: 7))
            guard case .success(let pong) = try connection.next(), pong == Received(requestID: 7, message: .pong(nonce: 42)) else {
                throw TestFailure("the connection did not stay open after ERROR \(code)")
            }
            connection.finishWriting()
            frames = try connection.framesUntilClosed()
            guard frames.isEmpty else { throw TestFailure("unexpected frames after the client closed: \(frames)") }
        case .closesQuietlyAfterClient:
            try expectWelcome()
            connection.finishWriting()
            frames = try connection.framesUntilClosed()
            guard frames.isEmpty else { throw TestFailure("a truncated frame was answered: \(frames)") }
        case .vanishes:
            return
        case .anything:
            connection.finishWriting()
            frames = try connection.framesUntilClosed()
            if let fatal = frames.firstIndex(where: { $0.message.errorCode?.closesConnection == true }), fatal != frames.count - 1 {
                throw TestFailure("frames after a connection error: \(frames)")
            }
        }
    }
}
