import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

/// Real daemons, their standard error read back: the JSON format, what is logged at debug, and the
/// quiet default.
@Suite("streamd log")
struct DaemonLogTests {
    /// Every line of `text` as a JSON object; a line that is not one fails the test.
    private func entries(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not a JSON object: \(line)")
        }
    }

    /// Clients sending garbage in a row: enough that the rate limit shows within a few seconds.
    private static let garbageClients = 150

    private func entries(_ all: [[String: Any]], message: String) -> [[String: Any]] {
        all.filter { ($0["message"] as? String)?.hasPrefix(message) == true }
    }

    @Test func withJSONAtDebugEveryLineIsAJSONObjectAndTellsStartupConnectionsProtocolErrorsAdminAndRetention() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory, extra: ["--log-format", "json", "--log-level", "debug", "--max-connections", "200"])
        let client = try SocketClient.connected(to: directory.socket)
        _ = try client.request(.createStream(name: "kept", policy: StreamPolicy(capacity: 5)))
        _ = try client.request(.configureStream(name: "kept", policy: StreamPolicy(capacity: 2)))
        for value in 0..<4 { try client.publish([UInt8(value)], to: "kept") }
        // Clients sending garbage: "GET " read as a frame length is far past the maximum frame.
        let started = ContinuousClock.now
        for _ in 0..<Self.garbageClients {
            let garbage = try SocketClient(path: directory.socket)
            try garbage.write(Array("GET / HTTP/1.1\r\n\r\n".utf8))
            _ = try garbage.framesUntilClosed()
        }
        let garbageSeconds = started.duration(to: .now).components.seconds
        #expect(pollUntil { daemon.standardError.components(separatedBy: "connection closed").count == Self.garbageClients + 1 }, "every garbage client's close is logged")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)

        let all = try entries(daemon.standardError)
        for entry in all {
            let time = try #require(entry["time"] as? String)
            #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z/) != nil, "\(time)")
            #expect(entry["level"] is String && entry["label"] as? String == "streamd" && entry["message"] is String)
        }
        let startup = try #require(entries(all, message: "streamd \(StreamdVersion.current) starting").first)
        #expect(startup["level"] as? String == "info")
        #expect(startup["version"] as? String == StreamdVersion.current)
        #expect(startup["db"] as? String == directory.database && startup["socket"] as? String == directory.socket)
        #expect(startup["durability"] as? String == "normal" && startup["acl"] as? String == "none")
        #expect(startup["max-connections"] as? Int == 200 && startup["idle-timeout"] as? String == "300 s")
        #expect(startup["log-format"] as? String == "json")
        #expect(entries(all, message: "streamd is listening").count == 1)

        let pid = Int(getpid()), uid = Int(getuid()), gid = Int(getgid())
        let opened = entries(all, message: "connection opened")
        #expect(opened.count == Self.garbageClients + 1)
        #expect(opened.allSatisfy { $0["level"] as? String == "debug" && $0["pid"] as? Int == pid && $0["uid"] as? Int == uid && $0["gid"] as? Int == gid })
        let closed = entries(all, message: "connection closed")
        #expect(closed.filter { $0["reason"] as? String == "protocol error" }.count == Self.garbageClients)
        #expect(closed.filter { $0["reason"] as? String == "daemon stopping" }.count == 1, "the first client was open at SIGTERM")
        #expect(closed.allSatisfy { $0["pid"] as? Int == pid && $0["duration-ms"] is Int })

        let protocolErrors = entries(all, message: "closed a connection for a protocol error")
        #expect(!protocolErrors.isEmpty)
        #expect(protocolErrors.allSatisfy {
            $0["level"] as? String == "warning" && $0["pid"] as? Int == pid && $0["uid"] as? Int == uid
                && $0["code"] as? String == "\(ErrorCode.frameTooLarge)" && ($0["error"] as? String)?.isEmpty == false
        })
        // At most 20 lines in each second the garbage came in (it may span one more than it took).
        #expect(protocolErrors.count <= 20 * (Int(garbageSeconds) + 2), "\(protocolErrors.count) lines in \(garbageSeconds) s")
        #expect(protocolErrors.count < Self.garbageClients || garbageSeconds >= 6, "the limit left none out")

        let config = try #require(entries(all, message: "admin: config kept").first)
        #expect(config["level"] as? String == "notice" && config["pid"] as? Int == pid && config["uid"] as? Int == uid)
        #expect((config["detail"] as? String)?.contains("capacity 2") == true, "\(config)")
        #expect(entries(all, message: "admin: create kept").count == 1)

        let drops = entries(all, message: "retention dropped events").filter { $0["stream"] as? String == "kept" }
        #expect(drops.allSatisfy { $0["level"] as? String == "debug" && ($0["limits"] as? String) == "capacity" })
        #expect(drops.compactMap { $0["events"] as? Int }.reduce(0, +) == 2, "4 events in a stream of capacity 2: 2 dropped, counted per commit")
    }

    @Test func aSubscriberThatFallsBehindToTheDiskIsLoggedAtNoticeWithWhoItIs() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory, extra: ["--log-format", "json"])
        let subscriber = try SocketClient.connected(to: directory.socket)
        let publisher = try SocketClient.connected(to: directory.socket)
        try publisher.publish([0], to: "fast")
        // Live events are buffered for a subscription that keeps up, at most 1024: a commit of 1100
        // overflows the buffer, and the subscription goes over to reading the disk.
        guard case .subscribed = try subscriber.request(.subscribe(.init(subscriptionID: 7, stream: "fast", start: .newOnly, credit: 1_000_000))) else {
            throw TestFailure("not subscribed")
        }
        // A batch that commits before the subscription takes live events is read from the disk, after
        // which it does: the next batch overflows its buffer.
        var batches = 0
        repeat {
            _ = try publisher.request(.publishBatch(.init(stream: "fast", entries: (0..<1100).map { _ in .init(payload: [1]) })))
            batches += 1
        } while !pollUntil(timeout: .seconds(1), { daemon.standardError.contains("fell behind") }) && batches < 10
        #expect(daemon.standardError.contains("fell behind"))
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let line = try #require(entries(try entries(daemon.standardError), message: "a subscriber fell behind").first)
        #expect(line["level"] as? String == "notice" && line["stream"] as? String == "fast" && line["subscription"] as? Int == 7)
        #expect(line["pid"] as? Int == Int(getpid()) && line["uid"] as? Int == Int(getuid()) && (line["next-sequence"] as? Int ?? 0) >= 2)
    }

    @Test func checkpointsAreLoggedAtDebugWithTheirDurationAndPages() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory, extra: ["--log-format", "json", "--log-level", "debug"])
        let client = try SocketClient.connected(to: directory.socket)
        // A cycle starts when the WAL holds 1000 pages: 6 MiB that zlib cannot shrink is more.
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<6 {
            let entries = (0..<16).map { _ in ClientMessage.PublishBatch.Entry(payload: (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }) }
            _ = try client.request(.publishBatch(.init(stream: "bulk", entries: entries)))
        }
        #expect(pollUntil { daemon.standardError.contains(#""message":"checkpoint""#) })
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let line = try #require(entries(try entries(daemon.standardError), message: "checkpoint").first)
        #expect(line["level"] as? String == "debug" && line["duration-ms"] is Int && line["reached-end"] is Bool)
        #expect((line["wal-pages"] as? Int ?? 0) >= 1000 && (line["copied-pages"] as? Int ?? 0) > 0, "\(line)")
    }

    @Test func byDefaultTheLogIsTextAndSaysNothingPerConnection() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory)
        for _ in 0..<5 {
            let client = try SocketClient.connected(to: directory.socket)
            try client.publish([1], to: "s")
        }
        let garbage = try SocketClient(path: directory.socket)
        try garbage.write(Array("GET / HTTP/1.1\r\n\r\n".utf8))
        _ = try garbage.framesUntilClosed()
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let lines = daemon.standardError.split(separator: "\n")
        #expect(lines.first?.contains(" info streamd: ") == true && lines.first?.hasSuffix("streamd \(StreamdVersion.current) starting") == true, "\(lines)")
        #expect(!daemon.standardError.contains("connection opened") && !daemon.standardError.contains("connection closed"))
        #expect(!daemon.standardError.hasPrefix("{"))
        // Start-up, listening, the stream's creation (notice), the protocol error (warning), shutting
        // down and stopped: five clients' connections and publishes add nothing.
        #expect(lines.count == 6, "\(lines)")
        if lines.count == 6 { #expect(lines[2].hasSuffix("admin: create s") && lines[3].hasSuffix("closed a connection for a protocol error"), "\(lines)") }
    }

    @Test func theFormatComesFromTheEnvironmentAndTheFlagWins() throws {
        let directory = try ShortTemporaryDirectory()
        let json = try DaemonProcess.serving(directory, environment: ["STREAMD_LOG_FORMAT": "JSON"])
        json.signal(SIGTERM)
        #expect(json.waitForExit() == 0)
        #expect(try entries(json.standardError).count >= 3)

        let text = try DaemonProcess.serving(directory, extra: ["--log-format", "text"], environment: ["STREAMD_LOG_FORMAT": "json"])
        text.signal(SIGTERM)
        #expect(text.waitForExit() == 0)
        #expect(!text.standardError.hasPrefix("{") && text.standardError.contains("starting"))
    }

    @Test func anUnknownFormatIsRefusedWithASentenceAndExit64() throws {
        let directory = try ShortTemporaryDirectory()
        let flag = try DaemonProcess(["--socket", directory.socket, "--db", directory.database, "--log-format", "xml"])
        #expect(flag.waitForExit() == 64)
        #expect(flag.standardError.contains("--log-format must be text or json (got \"xml\")"), "\(flag.standardError)")
        let variable = try DaemonProcess(["--socket", directory.socket, "--db", directory.database], environment: ["STREAMD_LOG_FORMAT": "yaml"])
        #expect(variable.waitForExit() == 64)
        #expect(variable.standardError.contains("STREAMD_LOG_FORMAT must be text or json (got \"yaml\")"), "\(variable.standardError)")
    }
}
