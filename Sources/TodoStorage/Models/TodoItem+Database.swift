import Foundation
import GRDB
import TodoCore

/// How a todo maps to the `todo` table. Rows are decoded by hand, column by
/// column, because listing a million todos makes every allocation count.
extension TodoItem {
    /// The columns every todo query selects, in the order `init(row:)` reads them.
    package static let selection = "todo.id, todo.text, todo.isDone, todo.createdAt, todo.updatedAt, todo.completedAt, todo.idPrefixLength"

    /// Decodes a row selected with `selection`; nil if its ID is not a UUID.
    package init?(row: Row) {
        guard let id = UUID(parsing: row[0]) else { return nil }
        let completedAt: Int64? = row[5]
        self.init(
            id: id,
            text: row[1],
            isDone: row[2],
            createdAt: Date(millisecondsSince1970: row[3]),
            updatedAt: Date(millisecondsSince1970: row[4]),
            completedAt: completedAt.map(Date.init(millisecondsSince1970:))
        )
    }

    /// The values of the columns written by `insert` and `update`, in order:
    /// id, text, searchText, isDone, createdAt, updatedAt, completedAt.
    package var databaseValues: StatementArguments {
        [
            idString,
            text,
            TodoItem.searchKey(text),
            isDone,
            createdAt.millisecondsSince1970,
            updatedAt.millisecondsSince1970,
            completedAt?.millisecondsSince1970,
        ]
    }
}

/// A todo as listed: the item and how many characters of its ID are unique.
public struct ListedTodo: Sendable, Equatable {
    public var item: TodoItem
    public var idPrefixLength: Int

    /// The shortest unique prefix of the ID, as shown and accepted.
    public var shortID: String {
        String(item.idString.prefix(idPrefixLength))
    }
}
