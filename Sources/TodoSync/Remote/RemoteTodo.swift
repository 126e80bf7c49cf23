import Foundation
import TodoCore

/// A todo as a server holds it, read tolerantly.
public struct RemoteTodo: Sendable, Hashable {
    /// The server's id, as text (`7` and `"7"` alike).
    public var id: String
    public var fields: SyncFields
    /// The local UUID this item was created from, if it carries one.
    public var clientId: UUID?
    public var createdAt: Date?
    public var updatedAt: Date?
    public var completedAt: Date?
    /// When its fields were edited, where a `todo` wrote that into the item.
    public var editedAt: FieldTimes
    public var version: Int?
    /// The tags the server holds that no tag of ours can be (a category
    /// with a space, say, another app's): sent back beside ours whenever
    /// tags are sent, so an edit of our tags does not drop them.
    public var foreignTags: [String]
    /// The UID a CalDAV server knows the item by, where it is not the
    /// todo's id in lower case (`12345`, `ABC-…` from Apple's apps,
    /// `something@host`): links to it are written with it.
    public var uid: String?
    /// RELATED-TO lines naming a task by a UID that is no UUID, and a
    /// parent's CHILD lines: resolved through the list's UIDs
    /// (`RemoteRelations.resolve`) before the item is planned.
    public var relations: [RemoteRelation] = []

    public init(
        id: String, fields: SyncFields, clientId: UUID? = nil, createdAt: Date? = nil, updatedAt: Date? = nil,
        completedAt: Date? = nil, editedAt: FieldTimes = FieldTimes(), version: Int? = nil, foreignTags: [String] = [],
        uid: String? = nil
    ) {
        self.foreignTags = foreignTags
        self.uid = uid
        self.id = id
        self.fields = fields
        self.clientId = clientId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.completedAt = completedAt
        self.editedAt = editedAt
        self.version = version
    }

    /// The local todo this item belongs to: its marker, else its id if that is a UUID.
    public var todoId: UUID? { clientId ?? UUID(parsing: id) }
}
