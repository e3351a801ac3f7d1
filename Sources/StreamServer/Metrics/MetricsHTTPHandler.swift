import NIOCore
import NIOHTTP1

/// Answers one HTTP request on a metrics connection as `MetricsRequestRule` says, then closes it.
///
/// It sits after the HTTP decoder; `MetricsRequestLimitHandler`, before it, refuses oversized
/// requests. The exposition is rendered on this connection's event loop, which is the metrics
/// endpoint's own, never one serving the stream socket.
///
/// Thread-safety: not Sendable; used on its channel's event loop only.
final class MetricsHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let render: @Sendable () -> [UInt8]
    private var answered = false

    /// A handler answering `GET /metrics` with what `render` returns (Prometheus text format).
    init(render: @escaping @Sendable () -> [UInt8]) {
        self.render = render
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case let .head(head) = unwrapInboundIn(data), !answered else { return }
        answered = true
        let answer = MetricsRequestRule.answer(method: head.method.rawValue, uri: head.uri)
        var headers = HTTPHeaders()
        headers.add(name: "Connection", value: "close")
        let body: ByteBuffer
        if answer == .metrics {
            headers.add(name: "Content-Type", value: "text/plain; version=0.0.4; charset=utf-8")
            body = ByteBuffer(bytes: render())
        } else {
            headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
            if answer == .methodNotAllowed { headers.add(name: "Allow", value: "GET") }
            body = ByteBuffer(string: answer.refusalBody)
        }
        headers.add(name: "Content-Length", value: "\(body.readableBytes)")
        let status = HTTPResponseStatus(statusCode: answer.status.code, reasonPhrase: answer.status.reason)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A request the decoder cannot parse: nothing worth answering.
        context.close(promise: nil)
    }
}

/// Refuses a metrics connection that sends more than `MetricsRequestRule.maximumRequestBytes` with a
/// 431 written straight to the socket; placed first in the pipeline.
///
/// After the answer it closes its side only and drops whatever else arrives until the client closes
/// (or the endpoint's connection timeout passes): closing at once, with the client's bytes unread,
/// would reset the connection and could lose the answer before the client reads it.
///
/// Thread-safety: not Sendable; used on its channel's event loop only.
final class MetricsRequestLimitHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var received = 0
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let buffer = unwrapInboundIn(data)
        received += buffer.readableBytes
        guard received <= MetricsRequestRule.maximumRequestBytes else {
            refused = true
            let answer = MetricsRequestRule.Answer.tooLarge
            let body = answer.refusalBody
            let response = "HTTP/1.1 \(answer.status.code) \(answer.status.reason)\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: response))).whenComplete { _ in
                channel.close(mode: .output, promise: nil)
            }
            return
        }
        context.fireChannelRead(data)
    }
}
