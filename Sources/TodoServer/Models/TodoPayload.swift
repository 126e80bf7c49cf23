/// A request body checked to be a todo the server can store.
///
/// The rules: a JSON object; `id`, if present, a non-empty string or an
/// integer; `title` a string; `completed` a boolean. Any other field is kept
/// as sent. `version` and `updatedAt` belong to the server and are ignored.
public struct TodoPayload: Sendable, Equatable {
    /// The body's original text: what is stored, less the server's fields.
    public let json: String
    /// The id the client gave, if any.
    public let id: ItemID?

    /// Most top-level fields in a todo. Each is a key SQLite's JSON functions
    /// search one by one when the server sets `id`, `version` and `updatedAt`
    /// and when PATCH merges. Checked while reading: a 1 MiB body of 70,000
    /// fields took 62 ms of CPU to refuse once read whole.
    public static let maxFields = 1_000

    /// Checks a body's bytes and throws a 400 saying what is wrong with them.
    ///
    /// The bytes are read once, by `StrictJSONReader`: the checks below and
    /// the store read the same members, so no body passes one and means
    /// something else to the other.
    public init(body: [UInt8]) throws(ServerError) {
        guard !body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            throw .badRequest("The request body is empty; send a JSON object such as {\"title\": \"Buy milk\"}.")
        }
        let document: StrictJSONReader.Document
        do {
            document = try StrictJSONReader.read(body, maxMembers: Self.maxFields)
        } catch {
            throw .badRequest(error.message)
        }
        guard case .object = document.value else {
            throw .badRequest("The request body must be a JSON object, not \(document.value.typeName).")
        }
        let fields = document.members
        if let title = fields["title"] {
            guard case .string = title else {
                throw .badRequest("Field \"title\" must be a string, not \(title.typeName).")
            }
        }
        if let completed = fields["completed"] {
            guard case .bool = completed else {
                throw .badRequest("Field \"completed\" must be true or false, not \(completed.typeName).")
            }
        }
        self.json = String(decoding: body, as: UTF8.self)
        self.id = try fields["id"].map(Self.id(from:))
    }

    /// The payload at `range` of a body `StrictJSONReader` has accepted
    /// whole (a batch's): its members are found without reading it again.
    /// What cannot be settled from its bytes alone (an escaped name or id, an
    /// id that is not a plain integer, too many members) goes through
    /// `init(body:)`, so the payload and any error are always that init's
    /// (`BatchPayloadTests`). A batch of 500 creates read each twice before.
    init(partOf bytes: [UInt8], range: Range<Int>) throws(ServerError) {
        if let payload = Self.plain(bytes, range) {
            self = payload
        } else {
            try self.init(body: Array(bytes[range]))
        }
    }

    private init(json: String, id: ItemID?) {
        self.json = json
        self.id = id
    }

    private static func plain(_ bytes: [UInt8], _ range: Range<Int>) -> TodoPayload? {
        guard bytes[range.lowerBound] == UInt8(ascii: "{") else { return nil }
        let members = JSONSlices.members(of: bytes, in: range)
        guard members.count <= maxFields else { return nil }
        var id: ItemID?
        for (name, value) in members {
            guard !name.contains(UInt8(ascii: "\\")) else { return nil }
            let first = bytes[value.lowerBound]
            if name.elementsEqual("title".utf8) {
                guard first == UInt8(ascii: "\"") else { return nil }
            } else if name.elementsEqual("completed".utf8) {
                guard bytes[value].elementsEqual("true".utf8) || bytes[value].elementsEqual("false".utf8) else { return nil }
            } else if name.elementsEqual("id".utf8) {
                let text = bytes[value]
                if first == UInt8(ascii: "\"") {
                    let inner = text.dropFirst().dropLast()
                    guard !inner.contains(UInt8(ascii: "\\")) else { return nil }
                    let key = String(decoding: inner, as: UTF8.self)
                    guard ItemID.problem(with: key) == nil else { return nil }
                    id = .string(key)
                } else {
                    guard !text.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
                          let number = Int64(String(decoding: text, as: UTF8.self)) else { return nil }
                    id = .number(number)
                }
            }
        }
        return TodoPayload(json: String(decoding: bytes[range], as: UTF8.self), id: id)
    }

    /// Checks text as a body; for tests and callers that hold a string.
    public init(json text: String) throws(ServerError) {
        try self.init(body: Array(text.utf8))
    }

    private static func id(from value: JSONShape) throws(ServerError) -> ItemID {
        switch value {
        case .string(let string):
            if let problem = ItemID.problem(with: string) {
                throw .badRequest("Field \"id\" must be a non-empty string of at most \(ItemID.maxKeyBytes) bytes in UTF-8 without NUL, or an integer; this one \(problem).")
            }
            return .string(string)
        case .integer(let number):
            return .number(number)
        default:
            throw .badRequest(
                "Field \"id\" must be a non-empty string of at most \(ItemID.maxKeyBytes) bytes in UTF-8 or an integer, not \(value.typeName)."
            )
        }
    }
}
