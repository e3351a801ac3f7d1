import Foundation
import StreamClient
import StreamProtocol
import StreamdTestSupport
import Testing

/// Import takes every event publish and export take (issue 14, defect 7), and what streamctl prints
/// on failure is a sentence, never a Swift value.
@Suite struct LargeEventImportTests {
    static let shared = SharedDaemon.start()

    /// The longest line `import` reads with the daemon's default frames: export's longest line for
    /// the largest payload, every byte of it escaped as `\u00XX`, plus the other fields.
    static let longestLine = 6 * FrameBounds.maximumPayload(frameLength: Frame.defaultMaximumLength) + 160

    @Test func fiveMebibyteEventsRoundTripThroughExportAndImport() async throws {
        let socket = try Self.shared.get().socket
        let ctl = Ctl(socket: socket)
        let (source, copy) = (uniqueStream("big"), uniqueStream("bigcopy"))
        let size = 5 * 1024 * 1024
        var random = SeededGenerator(seed: 14)
        let payloads: [[UInt8]] = [
            [UInt8](repeating: UInt8(ascii: "x"), count: size),  // text: a 5 MiB line
            [UInt8](repeating: 0x01, count: size),  // control bytes: a 30 MiB line, each escaped
            (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) },  // not UTF-8: base64
        ]
        let connection = try await StreamConnection.connect(socketPath: socket, clientName: "large-event-test")
        for payload in payloads { _ = try await connection.append(payload, to: source) }
        connection.close()

        let directory = try ShortTemporaryDirectory()
        let file = directory.path + "/big.ndjson"
        #expect(try ctl.succeed("export", source, "--output", file) == "exported 3 events of \(source) to \(file)\n")
        let result = try ctl.run("import", copy, "--input", file)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == "imported 3 events into \(copy) (sequences 1...3)\n", "\(result)")

        let reader = try await StreamConnection.connect(socketPath: socket, clientName: "large-event-test")
        defer { reader.close() }
        var copied: [[UInt8]] = []
        for try await event in reader.history(of: copy, from: .all) { copied.append(event.payload) }
        #expect(copied == payloads)
    }

    @Test func aLineLongerThanAnyExportGetsASentenceNamingItsLineSizeAndLimit() throws {
        let ctl = try Ctl(Self.shared)
        let directory = try ShortTemporaryDirectory()
        let file = directory.path + "/long.ndjson"
        _ = FileManager.default.createFile(atPath: file, contents: Data(#"{"payload":"first"}"#.utf8 + [0x0A]))
        let handle = try #require(FileHandle(forWritingAtPath: file))
        handle.seekToEndOfFile()
        let piece = Data(repeating: UInt8(ascii: "y"), count: 1024 * 1024)
        var written = 0
        while written <= Self.longestLine {
            handle.write(piece)
            written += piece.count
        }
        try handle.close()

        let stream = uniqueStream("longline")
        let result = try ctl.run("import", stream, "--input", file)
        #expect(result.status == 1)
        let message = result.standardError
        #expect(message.hasPrefix("streamctl: line 2 of \(file) is at least "), "\(message)")
        #expect(message.contains("more than the \(Self.longestLine) bytes of the longest line `streamctl export` writes"), "\(message)")
        #expect(message.contains("the lines before it were imported (1 event)"), "\(message)")
        #expect(message.contains("--skip-lines 2"), "\(message)")
        #expect(!message.contains("LineTooLong("), "\(message)")
        #expect(try ctl.run("tail", stream, "--all").lines == ["first"])
    }

    @Test func everyErrorStreamctlCanPrintDescribesItselfAsASentence() throws {
        let errors: [any Error & CustomStringConvertible] = [
            StreamClientError.daemonNotRunning(socketPath: "/run/s.sock", reason: "No such file or directory"),
            StreamClientError.server(code: .storageFull, message: "the disk is full."),
            StreamClientError.connectionClosed("the daemon went away"),
            StreamClientError.protocolViolation("expected STREAM_INFO, got \(ServerMessage.pong(nonce: 7))"),
            StreamClientError.protocolViolation("expected PUBLISHED, got \(ServerMessage.streamPage(streams: [], more: false))"),
            StreamClientError.protocolViolation("expected OK, got \(ServerMessage.error(code: .internal, message: "a bug"))"),
            StreamClientError.streamFailed("upstream failed"),
            StreamClientError.subscriptionEnded(reason: .streamDeleted, message: "deleted"),
            StreamClientError.subscriptionEnded(reason: .serverShuttingDown, message: "bye"),
            StreamClientError.codec("not JSON"),
            StreamClientError.requestTooLarge(frameLength: 20_000_000, maximum: 16_777_216),
            ProtocolError.malformed("count is 3 but 2 entries follow"),
            ProtocolError.frameTooLarge(length: 20_000_000, maximum: 16_777_216),
            ProtocolError.unknownMessageType(0x7F),
            ProtocolError.valueTooLong(field: "stream", length: 70_000, maximum: 65_535),
        ]
        let dump = try Regex(#"[A-Za-z_][A-Za-z0-9_]*\(|\b[a-z]+[A-Z][A-Za-z]*\b"#)
        for error in errors {
            let text = error.description
            #expect(text.firstMatch(of: dump) == nil, "a Swift value in: \(text)")
            #expect(text.contains(" "), "not a sentence: \(text)")
        }
    }
}
