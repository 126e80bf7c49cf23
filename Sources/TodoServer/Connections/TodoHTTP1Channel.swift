import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel with the server's limits and an
/// `HTTP1ConnectionGuard` placed right after NIO's parser, where the HTTP
/// version and the parser's errors are still visible.
struct TodoHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value

    let inner: HTTP1Channel
    let headerTimeout: Duration

    var responder: HTTPChannelHandler.Responder { inner.responder }

    init(responder: @escaping HTTPChannelHandler.Responder, idleTimeout: Duration, headerTimeout: Duration) {
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
            maxHeaderFieldSize: HTTPLimits.maxHeaderFieldSize,
            maxHeaderListSize: HTTPLimits.maxHeaderListSize,
            maxHeaderFieldCount: HTTPLimits.maxHeaderFieldCount
        )
        inner = HTTP1Channel(
            responder: responder,
            configuration: .init(idleTimeout: TimeAmount(idleTimeout), httpDecoderConfiguration: decoder)
        )
        self.headerTimeout = headerTimeout
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let parser = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(HTTP1ConnectionGuard(headerTimeout: TimeAmount(headerTimeout)), position: .after(parser))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with the server's limits and timeouts.
    static func todoHTTP1(idleTimeout: Duration, headerTimeout: Duration) -> HTTPServerBuilder {
        .init { responder in
            TodoHTTP1Channel(responder: responder, idleTimeout: idleTimeout, headerTimeout: headerTimeout)
        }
    }
}
