import NIOCore
import NIOEmbedded
import Testing

@testable import StreamServer

/// Counts the reads that get past the handler under test towards the socket.
private final class ReadCounter: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    var reads = 0

    func read(context: ChannelHandlerContext) {
        reads += 1
        context.read()
    }
}

@Suite("SessionHandler")
struct SessionHandlerTests {
    private func makeChannel() throws -> (EmbeddedChannel, ReadCounter, ServerConnection, TemporaryLog) {
        let (hub, storage) = try makeHub()
        let channel = EmbeddedChannel()
        let counter = ReadCounter()
        let connection = ServerConnection(hub: hub, channel: channel, peer: nil, label: "test")
        try channel.pipeline.syncOperations.addHandler(counter)
        try channel.pipeline.syncOperations.addHandler(SessionHandler(connection: connection) { _ in })
        return (channel, counter, connection, storage)
    }

    @Test func readsPassWhileTheClientTakesItsReplies() throws {
        let (channel, counter, _, _) = try makeChannel()
        channel.read()
        #expect(counter.reads == 1)
    }

    @Test func readingPausesWhileTheChannelIsNotWritableAndResumesWhenItIs() throws {
        let (channel, counter, _, _) = try makeChannel()
        channel.isWritable = false
        channel.read()
        #expect(counter.reads == 0)
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        #expect(counter.reads == 1)
    }

    @Test func aDrainingConnectionReadsNoMore() throws {
        let (channel, counter, connection, _) = try makeChannel()
        connection.stopTakingRequests()
        channel.read()
        #expect(counter.reads == 0)
    }

    @Test func closingTheChannelClosesTheSession() throws {
        let (channel, _, connection, _) = try makeChannel()
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/tmp/unused")).wait()
        #expect(!connection.session.isClosed)
        _ = try channel.finish()
        #expect(connection.session.isClosed)
    }
}
