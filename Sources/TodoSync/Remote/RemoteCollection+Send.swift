// MARK: - Sending

extension RemoteCollection {
    /// Sends one request; a status outside 2xx (and `allow`) becomes a `SyncError`.
    func send(
        _ method: String, _ url: String, body: JSONValue? = nil, ifMatch version: Int? = nil, allow: Set<Int> = []
    ) async throws -> HTTPResponseData {
        var headers = ["accept": "application/json"]
        if let token = configuration.token { headers["authorization"] = "Bearer \(token)" }
        // Only with a body: some servers fail a GET or DELETE that carries it.
        if body != nil { headers["content-type"] = "application/json" }
        if let version { headers["if-match"] = "\"\(version)\"" }
        let request = HTTPRequestData(method: method, url: url, headers: headers, body: body?.bytes)
        let name = "\(method) \(url.dropFirst(configuration.server.count))"
        let response: HTTPResponseData
        do {
            response = try await transport.send(request)
        } catch let error as TransportError {
            throw SyncError.unreachable(server: configuration.server, request: name, kind: error.kind, queued: nil)
        }
        if (200..<300).contains(response.status) || allow.contains(response.status) {
            return response
        }
        if response.status == 401 || response.status == 403 {
            throw SyncError.unauthorized(request: name)
        }
        throw SyncError.httpStatus(request: name, status: response.status, body: Self.excerpt(response))
    }

    func parse(_ response: HTTPResponseData, request: String) throws -> JSONValue {
        do {
            return try JSONValue.parse(response.body)
        } catch {
            let reason = response.body.isEmpty ? "empty body" : "not complete JSON: \(Self.excerpt(response))"
            throw SyncError.malformed(request: request, reason: reason)
        }
    }

    /// The start of an error body, on one line: servers send JSON, HTML or text.
    static func excerpt(_ response: HTTPResponseData) -> String {
        if let message = (try? JSONValue.parse(response.body))?["error"], case let .string(text) = message {
            return text
        }
        let flat = response.text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > 120 ? String(flat.prefix(120)) + "…" : flat
    }
}
