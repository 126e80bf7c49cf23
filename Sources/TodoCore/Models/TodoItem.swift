import Foundation

/// One todo: a plain value, identified by a UUID the client generates.
///
/// Times are kept to the millisecond, the precision of the database and of
/// the JSON output, so a todo survives any round trip unchanged.
public struct TodoItem: Sendable, Codable, Identifiable, Hashable {
    public var id: UUID
    public var text: String
    public var isDone: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public var completedAt: Date?

    public init(
        id: UUID,
        text: String,
        isDone: Bool = false,
        createdAt: Date,
        updatedAt: Date? = nil,
        completedAt: Date? = nil
    ) {
        self.id = id
        self.text = text
        self.isDone = isDone
        self.createdAt = createdAt.roundedToMilliseconds
        self.updatedAt = (updatedAt ?? createdAt).roundedToMilliseconds
        self.completedAt = completedAt?.roundedToMilliseconds
    }
}

// MARK: - JSON

extension TodoItem {
    /// The JSON field names: `done` reads better than `isDone` in a script.
    enum CodingKeys: String, CodingKey {
        case id, text
        case isDone = "done"
        case createdAt, updatedAt, completedAt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let createdAt = try container.decode(Date.self, forKey: .createdAt)
        self.init(
            id: try container.decode(UUID.self, forKey: .id),
            text: try container.decode(String.self, forKey: .text),
            isDone: try container.decodeIfPresent(Bool.self, forKey: .isDone) ?? false,
            createdAt: createdAt,
            updatedAt: try container.decodeIfPresent(Date.self, forKey: .updatedAt),
            completedAt: try container.decodeIfPresent(Date.self, forKey: .completedAt)
        )
    }
}

// MARK: - Changes

extension TodoItem {
    /// This todo marked done (or not done) at `date`.
    public func marking(done: Bool, at date: Date) -> TodoItem {
        guard done != isDone else { return self }
        var item = self
        item.isDone = done
        item.completedAt = done ? date.roundedToMilliseconds : nil
        item.updatedAt = date.roundedToMilliseconds
        return item
    }

    /// This todo with new text, edited at `date`.
    public func editing(text newText: String, at date: Date) -> TodoItem {
        guard newText != text else { return self }
        var item = self
        item.text = newText
        item.updatedAt = date.roundedToMilliseconds
        return item
    }
}

// MARK: - Identifiers

extension TodoItem {
    /// The identifier as stored and shown: lowercase, with dashes.
    public var idString: String { id.lowercasedString }
}

extension Date {
    /// Milliseconds since 1970, the unit todos are stored in.
    public var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }

    /// The date at `milliseconds` since 1970.
    public init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// This date rounded to the millisecond.
    public var roundedToMilliseconds: Date {
        Date(millisecondsSince1970: millisecondsSince1970)
    }
}
