import StreamProtocol
import Testing

@testable import StreamServer

@Suite struct ConnectionStateTests {
    private func state() -> ConnectionState {
        ConnectionState(supportedVersions: 1...1, maximumFrameLength: 1024, maximumSubscriptions: 8, serverName: "test")
    }

    @Test func helloInACommonRangeIsWelcomedWithTheHighestCommonVersion() {
        var state = state()
        #expect(state.received(.hello(minVersion: 1, maxVersion: 7, clientName: "c"))
            == .reply(.welcome(version: 1, maxFrameLength: 1024, maxSubscriptions: 8, serverName: "test")))
        #expect(state.phase == .open(version: 1))
        #expect(state.received(.ping(nonce: 1)) == .dispatch)
    }

    @Test func aFirstFrameOtherThanHelloClosesWithHandshakeRequired() {
        var state = state()
        guard case let .replyAndClose(.error(code, _)) = state.received(.ping(nonce: 1)) else {
            Issue.record("no closing error")
            return
        }
        #expect(code == .handshakeRequired)
        #expect(state.isClosed)
        #expect(state.received(.hello(minVersion: 1, maxVersion: 1, clientName: "c")) == .ignore)
    }

    /// Before `HELLO` no layout is agreed: a known request is refused unread, whatever its body; an
    /// unknown type is left to the reading, which names it; `HELLO` is read.
    @Test func aKnownRequestBeforeHelloIsRefusedWithoutReadingItsBody() {
        var state = state()
        #expect(state.receivedFrame(ofType: ClientMessage.helloType) == nil)
        #expect(state.receivedFrame(ofType: 0x7F) == nil)
        guard case let .replyAndClose(.error(code, _))? = state.receivedFrame(ofType: ClientMessage.createStream(name: "s", policy: .init()).type) else {
            Issue.record("no closing error")
            return
        }
        #expect(code == .handshakeRequired && state.isClosed)
        var open = self.state()
        _ = open.received(.hello(minVersion: 1, maxVersion: 1, clientName: "c"))
        #expect(open.receivedFrame(ofType: ClientMessage.ping(nonce: 1).type) == nil && open.version == 1)
    }

    @Test func versionRangesWithoutTheServersVersionCloseWithUnsupportedVersion() {
        for (minimum, maximum) in [(2, 5), (0, 0), (3, 1)] as [(UInt16, UInt16)] {
            var state = state()
            guard case let .replyAndClose(.error(code, message)) = state.received(.hello(minVersion: minimum, maxVersion: maximum, clientName: "c")) else {
                Issue.record("no closing error for \(minimum)...\(maximum)")
                continue
            }
            #expect(code == .unsupportedVersion)
            #expect(message.contains("1...1"))
            #expect(state.isClosed)
        }
    }

    @Test func aSecondHelloIsAnsweredWithAnErrorAndTheConnectionStaysOpen() {
        var state = state()
        _ = state.received(.hello(minVersion: 1, maxVersion: 1, clientName: "c"))
        guard case let .reply(.error(code, _)) = state.received(.hello(minVersion: 1, maxVersion: 1, clientName: "c")) else {
            Issue.record("no error")
            return
        }
        #expect(code == .invalidArgument)
        #expect(!state.isClosed)
    }

    @Test func aProtocolErrorClosesOnceWithItsCode() {
        var state = state()
        #expect(state.failed(.frameTooLarge(length: 5000, maximum: 1024)).isClosingError(.frameTooLarge))
        #expect(state.failed(.unknownMessageType(0x7F)) == .ignore)
    }
}

extension ConnectionState.Action {
    func isClosingError(_ expected: ErrorCode) -> Bool {
        if case let .replyAndClose(.error(code, _)) = self { return code == expected }
        return false
    }
}
