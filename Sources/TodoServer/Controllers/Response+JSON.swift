import Hummingbird

extension Response {
    /// A JSON response from text that is already JSON.
    static func json(_ text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// One todo, with its version as the ETag.
    static func json(_ todo: StoredTodo, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.eTag] = ETag.string(for: todo.version)
        return .json(todo.json, status: status, headers: headers)
    }
}

extension HTTPFields.Element.Name {
    /// The change feed position a response was read at; pass it as `_since`.
    static let cursor = Self("X-Cursor")!
    /// How many todos match, all pages together (json-server v0.17).
    static let totalCount = Self("X-Total-Count")!
    /// Where a reconnecting event stream's client left off (Server-Sent Events).
    static let lastEventID = Self("Last-Event-ID")!
    /// Tells nginx to pass each event of a stream on as it comes.
    static let accelBuffering = Self("X-Accel-Buffering")!
}
