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
