import Testing

@testable import StreamClient

@Test func theDefaultSocketPathEndsInAStreamdSocketFile() {
    #expect(StreamdSocket.defaultPath.hasSuffix(".sock"))
}
