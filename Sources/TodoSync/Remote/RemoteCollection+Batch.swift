import Foundation
import TodoCore

// MARK: - Batch writes (todo-server)
// `POST /todos/_batch` takes several creates, updates and deletes in one
// request and applies them in one transaction, each on its own: every
// operation succeeds or fails whole, with its own precondition and result
// (Docs/server.md, "Batch writes"). A server without it answers 404 or 405, and sync
// goes back to one request per write.

extension RemoteCollection {
    /// One write of a batch.
    public enum BatchWrite: Sendable, Hashable {
        case create(TodoItem, fields: SyncFields, editedAt: FieldTimes)
        case update(
            id: String, version: Int?, fields: SyncFields, changed: Set<TodoField>, editedAt: FieldTimes, local: TodoItem?,
            dates: Bool, keptTags: [String]
        )
        case delete(id: String, version: Int?)
    }

    /// The results of a batch, in the order of its operations; nil if the
    /// server has no batch route or refuses one this large.
    public func batch(_ operations: [BatchWrite]) async throws -> [WriteResult]? {
        let request = "POST \(configuration.collectionPath)/_batch"
        let body: [JSONValue] = operations.map { operation in
            switch operation {
            case let .create(todo, fields, editedAt):
                .object(["method": .string("POST"), "body": .object(createBody(todo, fields: fields, editedAt: editedAt, keepsID: true))])
            case let .update(id, version, fields, changed, editedAt, local, dates, keptTags):
                .object([
                    "method": .string("PATCH"), "id": .string(id), "ifMatch": version.map { .integer(Int64($0)) } ?? .null,
                    "body": .object(self.body(fields, changed: changed, editedAt: editedAt, local: local, dates: dates, keptTags: keptTags)),
                ])
            case let .delete(id, version):
                .object(["method": .string("DELETE"), "id": .string(id), "ifMatch": version.map { .integer(Int64($0)) } ?? .null])
            }
        }
        // 404 or 405: no batch route; 413: a smaller body limit than ours.
        let response = try await send("POST", collectionURL + "/_batch", body: .object(["operations": .array(body)]), allow: [404, 405, 413])
        if [404, 405, 413].contains(response.status) { return nil }
        let results = try Self.batchResults(response, names: configuration.names, request: request)
        guard results.count == operations.count else {
            throw SyncError.malformed(request: request, reason: "not one result per operation")
        }
        return results.map { status, item in
            switch status {
            case 200..<300: .done(item)
            case 404, 410: .missing
            case 409: .exists
            default: .stale
            }
        }
    }

    /// Each result's status and item: scanned in one pass, as lists are, or
    /// read through `JSONValue` where the scanner gives up.
    static func batchResults(
        _ response: HTTPResponseData, names: FieldNames, request: String
    ) throws -> [(status: Int, item: RemoteTodo?)] {
        if let results = RemoteListScanner.batchResults(in: response.body, names: names) { return results }
        guard case let .array(results)? = (try? JSONValue.parse(response.body))?["results"] else {
            throw SyncError.malformed(request: request, reason: "not {\"results\": [...]}")
        }
        return results.map { result in
            guard case let .integer(status)? = result["status"] else { return (0, nil) }
            return (Int(status), result["item"].flatMap { RemoteTodo(json: $0, names: names) })
        }
    }

    /// A new item's fields: the todo's, its UUID as marker (and, on
    /// todo-server, as id), its dates and edit times.
    func createBody(_ todo: TodoItem, fields: SyncFields, editedAt: FieldTimes, keepsID: Bool) -> [String: JSONValue] {
        // A planning field the todo does not use is left out, as a server
        // item without it reads the same, unless it was edited (cleared).
        let sent = fields.fieldsInUse.union(TodoField.allCases.filter { editedAt[$0] != nil })
        var object = body(fields, changed: sent, editedAt: editedAt, local: todo)
        object[configuration.names.marker] = .string(todo.idString)
        object[configuration.names.createdAt] = .string(ISO8601.string(from: todo.createdAt))
        if keepsID { object["id"] = .string(todo.idString) }
        return object
    }
}
