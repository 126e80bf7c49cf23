import Foundation
import TodoSync

/// Cuts the connection after the server took a write, and hides an item
/// from the lists that follow, as a page that shifted or a stale cache
/// would; a lookup by marker still finds it.
actor CuttingAnswers: HTTPTransport {
    let base: FakeJSONServer
    private var cut: Set<String> = []
    private var hidden: String?

    init(_ base: FakeJSONServer) { self.base = base }

    /// Writes of these methods are applied, then their answers lost.
    func cut(_ methods: Set<String>) { cut = methods }
    func hideFromLists(_ title: String) { hidden = title }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        var response = try await base.send(request)
        if cut.contains(request.method) { throw TransportError(.connectionClosed, "cut after the server took it") }
        let isList = request.method == "GET" && request.url.hasSuffix("/todos")
        if isList, let hidden, case let .array(items)? = try? JSONValue.parse(response.body) {
            response.body = JSONValue.array(items.filter { $0["title"] != .string(hidden) }).bytes
        }
        return response
    }
}
