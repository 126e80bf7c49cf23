import Foundation

/// One write of a `POST /todos/_batch`: a create, a replace, a patch or a
/// delete, with its own precondition. Each is applied whole or not at all,
/// and answered on its own.
public struct BatchOperation: Sendable, Equatable {
    public enum Method: String, Sendable, CaseIterable {
        case create = "POST", replace = "PUT", patch = "PATCH", delete = "DELETE"
    }

    public let method: Method
    /// The todo written to (its key); nil for a create, whose id is in its payload.
    public let id: String?
    public let ifMatch: IfMatch?
    /// The body of a create, replace or patch, checked as the single routes check it.
    public let payload: TodoPayload?

    public init(method: Method, id: String? = nil, ifMatch: IfMatch? = nil, payload: TodoPayload? = nil) {
        self.method = method
        self.id = id
        self.ifMatch = ifMatch
        self.payload = payload
    }

    /// Reads a batch body, `{"operations": [{"method": "PATCH", "id": "a",
    /// "ifMatch": 3, "body": {...}}, ...]}`; a 400 names the operation that is
    /// wrong and why, a 413 says there are too many.
    public static func operations(from body: [UInt8], limit: Int) throws(ServerError) -> [BatchOperation] {
        let document: StrictJSONReader.Document
        do {
            document = try StrictJSONReader.read(body)
        } catch {
            throw .badRequest(error.message)
        }
        guard case .object = document.value, case .array = document.members["operations"] else {
            throw .badRequest(#"A batch is a JSON object with an array "operations": {"operations": [{"method": "POST", "body": {"title": "Buy milk"}}]}."#)
        }
        guard let operations = JSONSlices.members(of: body, in: body.indices).first(where: { $0.name == Array("operations".utf8) })
        else {
            throw .badRequest(#"A batch needs an array "operations"."#)
        }
        let elements = JSONSlices.elements(of: body, in: operations.value)
        guard elements.count <= limit else {
            throw ServerError(.contentTooLarge, "A batch holds at most \(limit) operations; this one has \(elements.count): split it.")
        }
        var result: [BatchOperation] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do {
                result.append(try operation(body, element))
            } catch {
                throw .badRequest("Operation \(index + 1) of the batch: \(error.message)")
            }
        }
        return result
    }

    private static func operation(_ body: [UInt8], _ range: Range<Int>) throws(ServerError) -> BatchOperation {
        var fields: [String: Range<Int>] = [:]
        for member in JSONSlices.members(of: body, in: range) {
            let name = String(decoding: member.name, as: UTF8.self)
            guard ["method", "id", "ifMatch", "body"].contains(name) else {
                throw .badRequest("\(name.debugDescription) is not a field of an operation; use method, id, ifMatch and body.")
            }
            fields[name] = member.value
        }
        guard body[range.lowerBound] == UInt8(ascii: "{") else { throw .badRequest("an operation is a JSON object.") }
        let names = Method.allCases.map(\.rawValue).joined(separator: ", ")
        guard let methodRange = fields["method"], let method = Method(rawValue: try string(body, methodRange) ?? "") else {
            throw .badRequest("\"method\" must be one of \(names).")
        }
        var id: String?
        if let idRange = fields["id"] {
            guard let text = try string(body, idRange) ?? Int64(String(decoding: body[idRange], as: UTF8.self)).map(String.init) else {
                throw .badRequest("\"id\" must be a string or an integer.")
            }
            if let problem = ItemID.problem(with: text) { throw .badRequest("\"id\" \(problem).") }
            id = text
        }
        guard (method == .create) == (id == nil) else {
            throw .badRequest(method == .create ? "a POST takes no \"id\": put it in its body." : "a \(method.rawValue) needs the \"id\" of its todo.")
        }
        var ifMatch: IfMatch?
        if let versionRange = fields["ifMatch"] {
            let text = String(decoding: body[versionRange], as: UTF8.self)
            if text == "\"*\"" {
                ifMatch = .any
            } else if let version = Int(text) {
                ifMatch = .versions([version])
            } else if text != "null" {
                throw .badRequest("\"ifMatch\" must be a version number, \"*\" or null.")
            }
        }
        var payload: TodoPayload?
        if let bodyRange = fields["body"] {
            guard method != .delete else { throw .badRequest("a DELETE takes no \"body\".") }
            payload = try TodoPayload(partOf: body, range: bodyRange)
        } else if method != .delete {
            throw .badRequest("a \(method.rawValue) needs a \"body\", the todo as it would be sent alone.")
        }
        return BatchOperation(method: method, id: id, ifMatch: ifMatch, payload: payload)
    }

    /// A JSON string's value, or nil if the bytes are not a string.
    private static func string(_ body: [UInt8], _ range: Range<Int>) throws(ServerError) -> String? {
        guard body[range.lowerBound] == UInt8(ascii: "\"") else { return nil }
        let inner = body[(range.lowerBound + 1)..<(range.upperBound - 1)]
        // Without an escape, a string the reader accepted is its own text.
        if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
        return try? JSONDecoder().decode(String.self, from: Data(body[range]))
    }
}

/// What one operation of a batch came to: its status, and the todo (as it
/// is now, or as it was for a delete) or the error.
public struct BatchResult: Sendable, Equatable {
    public let status: Int
    public let todo: StoredTodo?
    public let error: String?

    public init(status: Int, todo: StoredTodo? = nil, error: String? = nil) {
        self.status = status
        self.todo = todo
        self.error = error
    }
}
