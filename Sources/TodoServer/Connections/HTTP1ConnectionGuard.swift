import NIOCore
import NIOHTTP1

/// Watches each connection between NIO's HTTP/1 parser and Hummingbird, for
/// what Hummingbird does not see or does not answer well.
///
/// - HTTP/1.0 without keep-alive (and `Connection: close`): Hummingbird's
///   request types carry no version, so this marks the request
///   `Connection: close`, which ends Hummingbird's loop, and says so on the
///   response. Pipelined requests are answered in order, each by its own
///   rule: the connection closes after the answer of the request that asked
///   for it, never before the answers of those read before it, and a request
///   read after it is dropped unread (never applied).
/// - A request head that trickles in: closed with 408 once `headerTimeout`
///   passes after its first bytes, however slowly they keep coming.
/// - A head the parser refuses (too large, malformed): answered with a JSON
///   error, 431 or 400, then closed; Hummingbird would send a bare 400.
/// - `Transfer-Encoding` other than `chunked`: 400 before the body is read,
///   since the server decodes no other coding.
final class HTTP1ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let headerTimeout: TimeAmount
    /// True between requests: any byte read now belongs to a request head.
    private var awaitingHead = true
    /// Set when a request ends in this read, whose bytes were that request's.
    private var endedInThisRead = false
    /// For each request passed on and not yet answered, in order: whether
    /// the connection closes after its answer.
    private var closesAfterAnswer: [Bool] = []
    /// A request that closes the connection was read whole: the rest is dropped.
    private var closingRead = false
    /// The request being read closes the connection.
    private var readingLast = false
    /// Set once this handler answered the request itself: the rest is dropped.
    private var answered = false
    private var headTimer: Scheduled<Void>?

    init(headerTimeout: TimeAmount) {
        self.headerTimeout = headerTimeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered, !closingRead else { return }
        switch unwrapInboundIn(data) {
        case .head(var head):
            awaitingHead = false
            headTimer?.cancel()
            headTimer = nil
            let codings = head.headers[canonicalForm: "transfer-encoding"]
            if !codings.isEmpty, codings.map({ $0.lowercased() }) != ["chunked"] {
                let list = codings.joined(separator: ", ")
                answer(context, .badRequest, "Transfer-Encoding \(list) is not supported; send the body as is, with Content-Length or chunked.")
                return
            }
            readingLast = !head.isKeepAlive
            if readingLast { head.headers.replaceOrAdd(name: "connection", value: "close") }
            closesAfterAnswer.append(readingLast)
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body:
            context.fireChannelRead(data)
        case .end:
            awaitingHead = true
            endedInThisRead = true
            closingRead = readingLast
            context.fireChannelRead(data)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if awaitingHead, !endedInThisRead, !answered, headTimer == nil {
            headTimer = context.eventLoop.assumeIsolated().scheduleTask(in: headerTimeout) { [self] in
                headTimer = nil
                answer(context, .requestTimeout, "The request head took longer than \(headerTimeout.nanoseconds / 1_000_000) ms to arrive; send it whole.")
            }
        }
        endedInThisRead = false
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Bytes after a request that closes the connection are dropped, not
        // answered: NIO's parser calls them an error, which would otherwise
        // answer 400 before the requests already read are answered.
        if closingRead { return }
        // Inside a request Hummingbird is reading the body: the error reaches
        // the handler, which answers 400 (see `RequestBody.read`).
        guard awaitingHead, let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        if parserError == .headerOverflow {
            answer(context, .requestHeaderFieldsTooLarge, "The request line or headers are too large: at most \(HTTPLimits.maxHeaderFieldSize) bytes each and \(HTTPLimits.maxHeaderListSize) in all.")
        } else {
            answer(context, .badRequest, "The request is not valid HTTP/1.1 (\(parserError)).")
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Answers go out in the order their requests came: the first flag is this answer's.
        guard !answered, closesAfterAnswer.first == true else {
            if case .end = unwrapOutboundIn(data), !closesAfterAnswer.isEmpty { closesAfterAnswer.removeFirst() }
            context.write(data, promise: promise)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.code >= 200:
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .head, .body:
            context.write(data, promise: promise)
        case .end:
            closesAfterAnswer.removeFirst()
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        headTimer?.cancel()
        headTimer = nil
    }

    /// Sends a JSON error and closes the connection.
    private func answer(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ message: String) {
        guard !answered else { return }
        answered = true
        headTimer?.cancel()
        headTimer = nil
        let body = ServerError(.init(code: Int(status.code)), message).jsonBody
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/json; charset=utf-8")
        headers.add(name: "content-length", value: String(body.utf8.count))
        headers.add(name: "connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        // Closing at once, with the client's bytes unread, would make the
        // kernel send a reset that can destroy the answer before the client
        // reads it. So only the sending side closes now; what still arrives is
        // read and dropped until the client closes, or `lingerTime` passes.
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
            context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingerTime) { context.close(promise: nil) }
        }
    }

    /// How long a connection this handler answered keeps reading before it closes.
    static let lingerTime: TimeAmount = .seconds(2)
}
