import EventLog
import StreamProtocol
import Testing

@testable import StreamServer

@Suite struct ServerErrorTests {
    @Test func logErrorsMapToTheirWireCodesAndKeepTheLogsMessage() {
        let cases: [(EventLogError.Code, ErrorCode)] = [
            (.invalidStreamName, .invalidStreamName), (.streamNotFound, .streamNotFound), (.streamExists, .streamExists),
            (.invalidArgument, .invalidArgument), (.streamEnded, .invalidArgument), (.diskFull, .storageFull),
            (.closed, .shuttingDown), (.corruptBlock, .storageFailure), (.sqlite, .storageFailure), (.io, .storageFailure),
            (.busy, .storageFailure), (.readOnly, .storageFailure), (.unavailable, .storageUnavailable), (.postgres, .storageFailure),
        ]
        for (logCode, wireCode) in cases {
            let mapped = ServerError.from(EventLogError(logCode, "what \(logCode) says"))
            #expect(mapped == ServerError(wireCode, "what \(logCode) says"))
        }
    }

    @Test func protocolErrorsKeepTheirCodeAndDescription() {
        let error = ProtocolError.unknownMessageType(0x7F)
        #expect(ServerError.from(error) == ServerError(.unknownMessage, error.description))
    }

    @Test func anyOtherErrorIsInternal() {
        struct Strange: Error {}
        #expect(ServerError.from(Strange()).code == .internal)
    }
}
