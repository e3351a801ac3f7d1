import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

/// A real `streamd --metrics` scraped over real HTTP, its output checked by the real `promtool`.
@Suite("streamd --metrics")
struct MetricsProcessTests {
    /// A daemon serving metrics on a free loopback port, and that port (read from its log line).
    private func metricsDaemon(_ directory: ShortTemporaryDirectory, extra: [String] = []) throws -> (DaemonProcess, Int) {
        let daemon = try DaemonProcess.serving(directory, extra: ["--metrics", "127.0.0.1:0"] + extra)
        try daemon.waitForError(containing: "metrics are served at")
        let log = daemon.standardError
        guard let match = log.firstMatch(of: /metrics are served at http:\/\/127\.0\.0\.1:(\d+)\/metrics/), let port = Int(match.1) else {
            throw TestFailure("no metrics address in the log: \(log)")
        }
        return (daemon, port)
    }

    @Test func scrapesMoveWithPublishesSubscriptionsAndErrors() throws {
        let directory = try ShortTemporaryDirectory()
        let (daemon, port) = try metricsDaemon(directory, extra: ["--metrics-streams", "1"])
        let before = try HTTPScrape.metrics(port: port)
        #expect(before.status == 200)
        #expect(before.head.contains("text/plain; version=0.0.4"))

        let client = try SocketClient.connected(to: directory.socket)
        for byte in [1, 2, 3] as [UInt8] { _ = try client.publish([byte, byte], to: "first") }
        for _ in 0..<2 { _ = try client.publish([9, 9, 9, 9], to: "second") }
        _ = try client.request(.createStream(name: "capped", policy: .init(capacity: 2)))
        for _ in 0..<5 { _ = try client.publish([7], to: "capped") }
        let subscriber = try SocketClient.connected(to: directory.socket)
        _ = try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "first", start: .all, credit: 100)))
        #expect(try subscriber.events(of: 1, count: 3).count == 3)
        #expect(try client.request(.getStreamInfo(name: "missing")).errorCode == .streamNotFound)

        // The subscription's delivery and the gauges are read at scrape time: poll until they show.
        var after = try HTTPScrape.metrics(port: port)
        #expect(pollUntil {
            after = (try? HTTPScrape.metrics(port: port)) ?? after
            // Attached once a read after the delivery found nothing more.
            return (after.value("streamd_delivered_events_total") ?? 0) >= 3 && after.value("streamd_subscriptions_catching_up") == 0
        })
        #expect(after.value("streamd_events_published_total") == 10)
        #expect(after.value("streamd_publish_requests_total") == 10)
        #expect(after.value(#"streamd_stream_events_total{stream="first"}"#) == 3)
        #expect(after.value(#"streamd_stream_bytes_total{stream="first"}"#) == 6)
        // --metrics-streams 1: the later streams share one series.
        #expect(after.value(#"streamd_stream_events_total{stream="(other)"}"#) == 7)
        #expect(after.value(#"streamd_stream_events_total{stream="second"}"#) == nil)
        #expect(after.value(#"streamd_retention_dropped_events_total{policy="capacity"}"#) == 3)
        #expect(after.value(#"streamd_errors_total{code="stream_not_found"}"#) == 1)
        #expect(after.value("streamd_connections_open") == 2)
        #expect(after.value("streamd_connections_accepted_total") == 2)
        #expect(after.value("streamd_subscriptions_active") == 1)
        #expect(after.value("streamd_subscriptions_catching_up") == 0)
        #expect((after.value("streamd_commits_total") ?? 0) >= 1)
        #expect(after.value("streamd_commit_events_count") == after.value("streamd_commits_total"))
        #expect(after.value("streamd_commit_events_sum") == 10)
        #expect(after.value("streamd_commit_duration_seconds_count") == after.value("streamd_commits_total"))
        #expect((after.value("streamd_received_bytes_total") ?? 0) > (before.value("streamd_received_bytes_total") ?? 0))
        #expect((after.value("streamd_sent_bytes_total") ?? 0) > (before.value("streamd_sent_bytes_total") ?? 0))
        #expect((after.value("streamd_database_size_bytes") ?? 0) > 0)
        #expect(after.value("streamd_wal_size_bytes") != nil)
        #expect(after.body.contains(#"streamd_build_info{version="\#(StreamdVersion.current)"} 1"#))

        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test func consumerCountersMoveWithAcknowledgementsRedeliveriesAndDeadLetters() throws {
        let directory = try ShortTemporaryDirectory()
        let (daemon, port) = try metricsDaemon(directory)
        let client = try SocketClient.connected(to: directory.socket, maxVersion: 4)
        for byte in [1, 2, 3] as [UInt8] { _ = try client.publish([byte], to: "jobs") }
        // An ack wait well above the time this test takes to acknowledge 1 on a loaded machine.
        let config = ConsumerConfig(ackWait: .seconds(3), maxDeliver: 2, deadLetter: "jobs.dead")
        let added = try client.request(.addConsumer(stream: "jobs", name: "c", config: config))
        guard case .consumerInfo = added else { throw TestFailure("ADD_CONSUMER was answered \(added)") }
        let attached = try client.request(.consume(.init(subscriptionID: 1, stream: "jobs", consumer: "c", credit: 10)))
        guard case .subscribed = attached else { throw TestFailure("CONSUME was answered \(attached)") }
        var delivered: [UInt64] = []
        while delivered.count < 3 {
            guard let frame = try client.next() else { throw TestFailure("closed before three deliveries") }
            if case let .deliveries(_, batch) = frame.message { delivered += batch.map(\.event.sequence) }
        }
        // 1 acknowledged; 2 given back, then left; 3 left: both delivered twice, then dead-lettered.
        #expect(try client.request(.ack(stream: "jobs", consumer: "c", sequences: [1])) == .ok)
        #expect(try client.request(.nack(stream: "jobs", consumer: "c", sequence: 2, delayMilliseconds: 0)) == .ok)
        var scrape = try HTTPScrape.metrics(port: port)
        #expect(pollUntil {
            scrape = (try? HTTPScrape.metrics(port: port)) ?? scrape
            return scrape.value("streamd_consumer_dead_lettered_events_total") == 2
        })
        #expect(scrape.value("streamd_consumer_acknowledged_events_total") == 1)
        #expect(scrape.value("streamd_consumer_redelivered_events_total") == 2)
        #expect(scrape.value("streamd_delivered_events_total") == 5)
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    // promtool comes with Debian's prometheus package, which .ci/run installs where it is missing.
    @Test(.enabled(if: HTTPScrape.promtoolIsInstalled, "promtool is not installed: apt-get install prometheus (as .ci/run does) to check the exposition with it"))
    func promtoolAcceptsTheExpositionBeforeAndAfterActivity() throws {
        let directory = try ShortTemporaryDirectory()
        let (daemon, port) = try metricsDaemon(directory, extra: ["--metrics-streams", "1"])
        let before = try HTTPScrape.metrics(port: port)
        let lintBefore = try before.promtoolCheck()
        #expect(lintBefore.status == 0, "promtool: \(lintBefore.output)")

        let client = try SocketClient.connected(to: directory.socket)
        for stream in ["a", "b", "c"] { _ = try client.publish([1, 2], to: stream) }
        _ = try client.request(.subscribe(.init(subscriptionID: 1, stream: "a", start: .all, credit: 10)))
        #expect(try client.request(.getStreamInfo(name: "missing")).errorCode == .streamNotFound)
        let after = try HTTPScrape.metrics(port: port)
        #expect(after.value(#"streamd_stream_events_total{stream="(other)"}"#) == 2)
        let lintAfter = try after.promtoolCheck()
        #expect(lintAfter.status == 0, "promtool: \(lintAfter.output)")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test func otherMethodsPathsAndOversizedRequestsAreRefusedAndTheDaemonKeepsServing() throws {
        let directory = try ShortTemporaryDirectory()
        let (daemon, port) = try metricsDaemon(directory)
        let post = try HTTPScrape.send("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi", port: port)
        #expect(post.status == 405)
        #expect(post.head.contains("Allow: GET"))
        #expect(try HTTPScrape.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n", port: port).status == 404)
        #expect(try HTTPScrape.send("GET /metrics/../etc HTTP/1.1\r\nHost: x\r\n\r\n", port: port).status == 404)
        let huge = "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Filler: \(String(repeating: "a", count: 16 * 1024))\r\n\r\n"
        #expect(try HTTPScrape.send(huge, port: port).status == 431)
        #expect(try HTTPScrape.send("garbage\r\n\r\n", port: port).status != 200)

        // Connections past the bound are closed unanswered; once the idle ones go, scrapes work again.
        var idle: [Int32] = []
        defer { for socket in idle { close(socket) } }
        for _ in 0..<8 { idle.append(try HTTPScrape.connect(port: port)) }
        #expect(pollUntil { (try? HTTPScrape.metrics(port: port))?.status == 0 })
        for socket in idle { close(socket) }
        idle = []
        #expect(pollUntil { (try? HTTPScrape.metrics(port: port))?.status == 200 })

        // The stream socket served throughout.
        let client = try SocketClient.connected(to: directory.socket)
        #expect(try client.publish([1], to: "still") == 1)
        #expect(try HTTPScrape.metrics(port: port).value("streamd_events_published_total") == 1)
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test func eventsPastTheirAgeAreCountedAsDroppedByAge() throws {
        let directory = try ShortTemporaryDirectory()
        let (daemon, port) = try metricsDaemon(directory)
        let client = try SocketClient.connected(to: directory.socket)
        _ = try client.request(.createStream(name: "aged", policy: .init(maxAge: .milliseconds(200))))
        for _ in 0..<3 { _ = try client.publish([1], to: "aged") }
        // The daemon drops expired events once a second.
        var scrape = try HTTPScrape.metrics(port: port)
        #expect(pollUntil {
            scrape = (try? HTTPScrape.metrics(port: port)) ?? scrape
            return scrape.value(#"streamd_retention_dropped_events_total{policy="age"}"#) == 3
        }, "age drops: \(scrape.value(#"streamd_retention_dropped_events_total{policy="age"}"#) ?? -1)")
        #expect(scrape.value(#"streamd_retention_dropped_events_total{policy="capacity"}"#) == 0)
        #expect(scrape.value(#"streamd_retention_dropped_events_total{policy="bytes"}"#) == 0)
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test func aConnectionRefusedAtTheLimitIsCountedWithItsReason() throws {
        let directory = try ShortTemporaryDirectory()
        let (daemon, port) = try metricsDaemon(directory, extra: ["--max-connections", "1"])
        let held = try SocketClient.connected(to: directory.socket)
        let refused = try SocketClient(path: directory.socket)
        let frames = try refused.framesUntilClosed()
        #expect(frames.first?.message.errorCode == .limitExceeded)
        let scrape = try HTTPScrape.metrics(port: port)
        #expect(scrape.value(#"streamd_connections_refused_total{reason="max_connections"}"#) == 1)
        #expect(scrape.value(#"streamd_connections_refused_total{reason="max_connections_per_user"}"#) == 0)
        #expect(scrape.value(#"streamd_errors_total{code="limit_exceeded"}"#) == 1)
        #expect(scrape.value("streamd_connections_open") == 1)
        _ = held
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test(arguments: [
        ("127.0.0.1", "has no port"),
        ("127.0.0.1:70000", "TCP port from 0 to 65535"),
        (":9464", "must name a host"),
        ("no-such-host.invalid:9464", "does not resolve"),
    ])
    func aBadAddressIsRefusedWithExit64AndASentence(value: String, sentence: String) throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", directory.database, "--metrics", value])
        #expect(daemon.waitForExit() == 64)
        #expect(daemon.standardError.contains(sentence), "stderr: \(daemon.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.socket))
    }

    @Test func theVariableIsUsedAndAPortInUseStopsStartUpWithTheReason() throws {
        let holder = try HTTPScrape.listeningSocket()
        defer { close(holder.socket) }
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess(
            ["--socket", directory.socket, "--db", directory.database],
            environment: ["STREAMD_METRICS": "127.0.0.1:\(holder.port)"])
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.standardError.contains("cannot listen for metrics on 127.0.0.1:\(holder.port): the address is already in use"), "stderr: \(daemon.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.socket))
    }
}

extension HTTPScrape {
    /// A TCP socket listening on a free loopback port, and that port.
    static func listeningSocket() throws -> (socket: Int32, port: Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && listen(socket, 1) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else { throw TestFailure("could not listen on a loopback port: \(String(cString: strerror(errno)))") }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }
}
