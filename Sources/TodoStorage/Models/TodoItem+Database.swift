import Foundation
import GRDB
import TodoCore

/// How a todo maps to the `todo` table. Rows are decoded by hand, column by
/// position: by name (`row["text"]`), GRDB looks each name up among the
/// row's columns, and `todo export` of 100,000 or 1,000,000 todos took 1.2x
/// as long (BENCHMARKS.md, "The shortcut audit").
extension TodoItem {
    /// The columns every todo query selects, in the order `init(row:)` reads them.
    /// `idPrefixLength` stays the seventh (index 6), as raw readers expect;
    /// the planning fields follow it, then the fields' edit times.
    package static let selection = """
        todo.id, todo.text, todo.isDone, todo.createdAt, todo.updatedAt, todo.completedAt, todo.idPrefixLength, \
        todo.due, todo.priority, todo.tags, todo.note, todo.recurrence, \
        todo.textEditedAt, todo.doneEditedAt, todo.dueEditedAt, todo.priorityEditedAt, todo.tagsEditedAt, \
        todo.noteEditedAt, todo.recurrenceEditedAt, \
        todo.project, todo.wait, todo.scheduled, todo.until, \
        todo.projectEditedAt, todo.waitEditedAt, todo.scheduledEditedAt, todo.untilEditedAt, \
        todo.parent, todo.blockedBy, todo.parentEditedAt, todo.blockedByEditedAt
        """

    /// How many columns `selection` names: a column selected after them is at this index.
    package static let selectionCount = 31

    /// The columns `databaseValues` fills, in its order.
    package static let writtenColumns = planlessColumns + """
        , project, wait, scheduled, until, projectEditedAt, waitEditedAt, scheduledEditedAt, untilEditedAt, \
        parent, blockedBy, parentEditedAt, blockedByEditedAt
        """

    /// The first `planlessCount` of them: all but the plan's (`TodoPlan`).
    package static let planlessColumns = """
        id, text, searchText, isDone, createdAt, updatedAt, completedAt, due, priority, tags, note, recurrence, \
        textEditedAt, doneEditedAt, dueEditedAt, priorityEditedAt, tagsEditedAt, noteEditedAt, recurrenceEditedAt
        """

    package static let planlessCount = 19

    /// The plan's columns that hold its values (the others hold their edit times).
    package static let planValueColumns = ["project", "wait", "scheduled", "until", "parent", "blockedBy"]

    /// How many values `databaseValues` holds: a value bound after them is `?` this plus one.
    package static let writtenCount = 31

    /// The placeholders of an insert of `writtenColumns` and `idPrefixLength`.
    package static let insertMarks = Array(repeating: "?", count: writtenCount + 1).joined(separator: ", ")

    /// `UPDATE todo SET …` of every column `databaseValues` fills, by their
    /// numbers (`?1` is the id, for the WHERE clause).
    package static let updateAssignments = """
        text = ?2, searchText = ?3, isDone = ?4, createdAt = ?5, updatedAt = ?6, completedAt = ?7, \
        due = ?8, priority = ?9, tags = ?10, note = ?11, recurrence = ?12, \
        textEditedAt = ?13, doneEditedAt = ?14, dueEditedAt = ?15, priorityEditedAt = ?16, tagsEditedAt = ?17, \
        noteEditedAt = ?18, recurrenceEditedAt = ?19, \
        project = ?20, wait = ?21, scheduled = ?22, until = ?23, \
        projectEditedAt = ?24, waitEditedAt = ?25, scheduledEditedAt = ?26, untilEditedAt = ?27, \
        parent = ?28, blockedBy = ?29, parentEditedAt = ?30, blockedByEditedAt = ?31
        """

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
            completedAt: completedAt.map(Date.init(millisecondsSince1970:)),
            due: (row[7] as String?).flatMap(TodoDue.init(text:)),
            priority: (row[8] as Int?).flatMap(TodoPriority.init(rank:)),
            tags: (row[9] as String?).map(TagList.decode) ?? [],
            note: row[10],
            recurrence: (row[11] as String?).flatMap(TodoRepeat.init(parsing:)),
            project: row[19],
            wait: (row[20] as String?).flatMap(TodoDue.init(text:)),
            scheduled: (row[21] as String?).flatMap(TodoDue.init(text:)),
            until: (row[22] as String?).flatMap(TodoDue.init(text:)),
            parent: (row[27] as String?).flatMap(UUID.init(parsing:)),
            blockedBy: (row[28] as String?).map(IDList.decode) ?? [],
            editedAt: FieldTimes(
                text: Self.time(row[12]), done: Self.time(row[13]), due: Self.time(row[14]),
                priority: Self.time(row[15]), tags: Self.time(row[16]), note: Self.time(row[17]),
                recurrence: Self.time(row[18]), project: Self.time(row[23]), wait: Self.time(row[24]),
                scheduled: Self.time(row[25]), until: Self.time(row[26]), parent: Self.time(row[29]),
                blockedBy: Self.time(row[30])
            )
        )
    }

    private static func time(_ milliseconds: Int64?) -> Date? {
        milliseconds.map(Date.init(millisecondsSince1970:))
    }

    /// The values of the columns written by `insert` and `update`, in order:
    /// `writtenColumns`.
    package var databaseValues: StatementArguments {
        [
            idString,
            text,
            TodoItem.searchKey(text),
            isDone,
            createdAt.millisecondsSince1970,
            updatedAt.millisecondsSince1970,
            completedAt?.millisecondsSince1970,
            due?.text,
            priority?.rank,
            TagList.encode(tags),
            note,
            recurrence?.description,
            editedAt.text?.millisecondsSince1970,
            editedAt.done?.millisecondsSince1970,
            editedAt.due?.millisecondsSince1970,
            editedAt.priority?.millisecondsSince1970,
            editedAt.tags?.millisecondsSince1970,
            editedAt.note?.millisecondsSince1970,
            editedAt.recurrence?.millisecondsSince1970,
            project,
            wait?.text,
            scheduled?.text,
            until?.text,
            editedAt.project?.millisecondsSince1970,
            editedAt.wait?.millisecondsSince1970,
            editedAt.scheduled?.millisecondsSince1970,
            editedAt.until?.millisecondsSince1970,
            parent?.lowercasedString,
            IDList.encode(blockedBy),
            editedAt.parent?.millisecondsSince1970,
            editedAt.blockedBy?.millisecondsSince1970,
        ]
    }
}

/// Blockers as the `blockedBy` column holds them: a JSON array of ids, which
/// `todo next` reads with `json_each`; NULL for none.
package enum IDList {
    package static func encode(_ ids: [UUID]) -> String? {
        guard !ids.isEmpty else { return nil }
        return "[" + ids.map { "\"" + $0.lowercasedString + "\"" }.joined(separator: ",") + "]"
    }

    /// The ids in a column value; what is not one is left out.
    package static func decode(_ text: String) -> [UUID] {
        TagList.decode(text).compactMap(UUID.init(parsing:))
    }
}
