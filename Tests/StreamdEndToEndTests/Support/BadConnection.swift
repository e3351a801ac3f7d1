import StreamProtocol
import StreamdTestSupport

/// One hostile connection for the live fuzz test: the bytes it sends and what the daemon must answer.
struct BadConnection: Sendable {
    /// What the daemon must do with the bytes.
    enum Expectation: Sendable, Equatable {
        /// Answer `ERROR code` (under `requestID`) and close the connection by itself.
        case closesWith(ErrorCode, requestID: UInt32)
        /// Answer `ERROR code` (under `requestID`), keep the connection open (a `PING` after it gets its
        /// `PONG`), and close it when the client does.
        case answersAndStaysOpen(ErrorCode, requestID: UInt32)
        /// Send nothing beyond `WELCOME`, and close when the client half-closes (a truncated frame).
        case closesQuietlyAfterClient
        /// A client that subscribes with much credit and vanishes without reading: nothing to check
        /// on the connection; its subscription must go (the test counts the stream's subscribers).
        case vanishes
        /// Random bytes: any answer, but any `ERROR` that is not one a request gets closes the
        /// connection, and the daemon closes once the client half-closes.
        case anything
    }

    /// The kinds, in the order cases cycle through them.
    static let kinds = [
        "noise", "truncated frame", "oversize length", "undersize length", "unknown type", "flags not 0",
        "no handshake", "wrong magic", "unsupported version", "invalid stream name", "malformed body",
        "second HELLO", "vanishing subscriber",
    ]

    let kind: String
    /// Whether a valid `HELLO` goes first (its `WELCOME` is then expected first).
    let greets: Bool
    let bytes: [UInt8]
    let expectation: Expectation

    /// The protocol version a fuzzing connection's `HELLO` agrees on; its requests are in its layouts.
    static let version: UInt16 = 1

    static func hello() throws -> [UInt8] {
        try ClientMessage.hello(minVersion: version, maxVersion: version, clientName: "fuzz").encoded(requestID: 1)
    }

    /// Valid requests other than `HELLO`, to break in various ways.
    static let samples: [ClientMessage] = [
        .ping(nonce: 7),
        .publish(.init(stream: "fuzz", expectedLastSequence: 3, messageID: "id", payload: [1, 2, 3])),
        .publishBatch(.init(stream: "fuzz", entries: [.init(messageID: "a", payload: [1]), .init(payload: [])])),
        .subscribe(.init(subscriptionID: 3, stream: "fuzz", start: .last(2), credit: 5)),
        .credit(subscriptionID: 3, credit: 1),
        .createStream(name: "fuzz", policy: .init(capacity: .last(5), replay: .from(sequence: 2))),
        .getStreamInfo(name: "fuzz"),
        .truncateStream(name: "fuzz", truncation: .keepLast(1), dryRun: true),
        .listStreams,
    ]

    /// Names that break the naming rules, each for a different reason.
    static let invalidNames = ["", ".hidden", "sp ace", "quote'--", String(repeating: "n", count: 201), "ünï", "a/b", "tab\t"]

    /// Case `number` (its kind cycles through `kinds`), drawn from `random`.
    static func make(_ number: Int, _ random: inout SeededGenerator) throws -> BadConnection {
        let hello = try hello()
        func noise(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) } }
        let kind = kinds[number % kinds.count]
        let id = UInt32.random(in: 2...UInt32.max, using: &random)
        let sample = samples.randomElement(using: &random)!
        let encodedSample = try sample.encoded(requestID: id, version: version)
        let greets = Bool.random(using: &random)
        let prefix = greets ? hello : []
        switch kind {
        case "noise":
            return BadConnection(kind: kind, greets: greets, bytes: prefix + noise(Int.random(in: 1...64, using: &random)), expectation: .anything)
        case "truncated frame":
            let cut = Int.random(in: 1..<encodedSample.count, using: &random)
            return BadConnection(kind: kind, greets: true, bytes: hello + encodedSample[..<cut], expectation: .closesQuietlyAfterClient)
        case "oversize length":
            let length = UInt32.random(in: UInt32(Frame.defaultMaximumLength + 1)...UInt32.max, using: &random)
            return BadConnection(
                kind: kind, greets: greets, bytes: prefix + withUnsafeBytes(of: length.bigEndian, Array.init) + noise(Int.random(in: 0...8, using: &random)),
                expectation: .closesWith(.frameTooLarge, requestID: 0))
        case "undersize length":
            let length = UInt32.random(in: 0...5, using: &random)
            return BadConnection(
                kind: kind, greets: greets, bytes: prefix + withUnsafeBytes(of: length.bigEndian, Array.init) + noise(Int(length)),
                expectation: .closesWith(.malformedFrame, requestID: 0))
        case "unknown type":
            let type = UnknownMessageType.random(using: &random)
            return BadConnection(
                kind: kind, greets: greets, bytes: prefix + Frame(type: type, requestID: id, body: noise(Int.random(in: 0...16, using: &random))).encoded,
                expectation: .closesWith(.unknownMessage, requestID: id))
        case "flags not 0":
            var frame = encodedSample
            frame[5] = UInt8.random(in: 1...255, using: &random)
            // The decoder rejects the frame before reading its request id into a message.
            return BadConnection(kind: kind, greets: greets, bytes: prefix + frame, expectation: .closesWith(.malformedFrame, requestID: 0))
        case "no handshake":
            return BadConnection(kind: kind, greets: false, bytes: encodedSample, expectation: .closesWith(.handshakeRequired, requestID: id))
        case "wrong magic":
            var frame = try ClientMessage.hello(minVersion: 1, maxVersion: 1, clientName: "fuzz").encoded(requestID: id)
            frame[10 + Int.random(in: 0...3, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            return BadConnection(kind: kind, greets: false, bytes: frame, expectation: .closesWith(.malformedFrame, requestID: id))
        case "unsupported version":
            // Past the daemon's newest version, none, or upside down.
            let newest = ProtocolVersions.supported.upperBound
            let ranges: [(UInt16, UInt16)] = [(newest + 1, newest + 7), (0, 0), (2, 1), (UInt16.max, UInt16.max), (newest + 3, newest + 1)]
            let (low, high) = ranges.randomElement(using: &random)!
            let frame = try ClientMessage.hello(minVersion: low, maxVersion: high, clientName: "old").encoded(requestID: id)
            return BadConnection(kind: kind, greets: false, bytes: frame, expectation: .closesWith(.unsupportedVersion, requestID: id))
        case "invalid stream name":
            let name = invalidNames.randomElement(using: &random)!
            let requests: [ClientMessage] = [
                .publish(.init(stream: name, payload: [1])),
                .publishBatch(.init(stream: name, entries: [.init(payload: [2])])),
                .subscribe(.init(subscriptionID: 1, stream: name, start: .all, credit: 10)),
                .createStream(name: name, policy: .init()),
                .configureStream(name: name, policy: .init()),
                .getStreamInfo(name: name),
                .truncateStream(name: name, truncation: .keepLast(1), dryRun: false),
                .deleteStream(name: name),
                .endStream(stream: name, failure: nil, expectedLastSequence: nil),
                .verify(stream: name),
            ]
            let frame = try requests.randomElement(using: &random)!.encoded(requestID: id, version: version)
            return BadConnection(kind: kind, greets: true, bytes: hello + frame, expectation: .answersAndStaysOpen(.invalidStreamName, requestID: id))
        case "malformed body":
            var body = Array(encodedSample[10...])
            switch Int.random(in: 0...2, using: &random) {
            case 0 where !body.isEmpty: body.removeLast(Int.random(in: 1...body.count, using: &random))
            case 1: body += noise(Int.random(in: 1...8, using: &random))
            default:
                // An opt or bool tag out of range: TRUNCATE with dry_run 2..255.
                let truncate = try ClientMessage.truncateStream(name: "fuzz", truncation: .keepLast(1), dryRun: true).encoded(requestID: id, version: version)
                body = Array(truncate[10...])
                body[body.count - 1] = UInt8.random(in: 2...255, using: &random)
                return BadConnection(
                    kind: kind, greets: true, bytes: hello + Frame(type: truncate[4], requestID: id, body: body).encoded,
                    expectation: .closesWith(.malformedFrame, requestID: id))
            }
            // Every body's length follows from its leading fields, so a byte fewer or more is malformed.
            let bad = Frame(type: encodedSample[4], requestID: id, body: body).encoded
            return BadConnection(kind: kind, greets: true, bytes: hello + bad, expectation: .closesWith(.malformedFrame, requestID: id))
        case "vanishing subscriber":
            let subscribe = try ClientMessage.subscribe(.init(subscriptionID: 1, stream: "good", start: .all, credit: .max)).encoded(requestID: id, version: version)
            return BadConnection(kind: kind, greets: true, bytes: hello + subscribe, expectation: .vanishes)
        default:  // second HELLO
            let again = try ClientMessage.hello(minVersion: 1, maxVersion: 1, clientName: "again").encoded(requestID: id)
            return BadConnection(kind: kind, greets: true, bytes: hello + again, expectation: .answersAndStaysOpen(.invalidArgument, requestID: id))
        }
    }
}
