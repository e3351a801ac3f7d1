import Testing

@testable import StreamClient

@Suite struct StreamdSocketTests {
    @Test func anExplicitSocketVariableWinsOverTheRuntimeDirectory() {
        let path = StreamdSocket.defaultPath(environment: ["STREAMD_SOCKET": "/x/d.sock", "XDG_RUNTIME_DIR": "/run/user/7"], userID: 7)
        #expect(path == "/x/d.sock")
    }

    @Test func theRuntimeDirectoryIsUsedWhenNoSocketIsNamed() {
        #expect(StreamdSocket.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/7"], userID: 7) == "/run/user/7/streamd.sock")
    }

    @Test func withNeitherVariableTheSocketIsInTmpNamedByUserID() {
        #expect(StreamdSocket.defaultPath(environment: ["STREAMD_SOCKET": "", "XDG_RUNTIME_DIR": ""], userID: 501) == "/tmp/streamd-501.sock")
    }
}
