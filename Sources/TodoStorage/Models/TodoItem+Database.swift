import Foundation
import GRDB
import TodoCore

/// How a todo's fields map to columns, in `todo` and in sync's bases alike:
/// each field's column (`TodoField.column`) holds its value in JSON's form
/// (`FieldValue`), but a flag as 0 or 1, the priority as its rank, and a
/// list (tags, blockers) as a JSON array, NULL when empty.
extension TodoField {
    /// `value`, this field's, as its column holds it.
    package func columnValue(_ value: FieldValue) -> DatabaseValue {
        switch value {
        case .none: .null
        case let .flag(flag): flag.databaseValue
        case let .text(text) where self == .priority: (TodoPriority(parsing: text)?.rank).databaseValue
        case let .text(text): text.databaseValue
        case let .list(list): TagList.encode(list).databaseValue
        }
    }

    /// This field's value in `row`'s column `index`, in JSON's form. Read
    /// as the type the column holds (an integer for the flag and the
    /// priority, text for the others): a `DatabaseValue` first cost `todo
    /// export` of a million todos a tenth of its time.
    package func value(in row: Row, at index: Int) -> FieldValue {
        switch kind {
        case .flag:
            return .flag(row[index] as Bool? ?? false)
        case .priority:
            return (row[index] as Int?).flatMap(TodoPriority.init(rank:)).map { .text($0.rawValue) } ?? .none
        case .tags, .todos:
            return .list((row[index] as String?).map(TagList.decode) ?? [])
        default:
            return (row[index] as String?).map(FieldValue.text) ?? .none
        }
    }
}

extension TodoFieldValues {
    /// `field`'s value as its column holds it.
    package func column(_ field: TodoField) -> DatabaseValue { field.columnValue(self[value: field]) }

    /// Sets `field` from its column (`index`) in `row`.
    package mutating func set(_ field: TodoField, in row: Row, at index: Int) {
        set(field, to: field.value(in: row, at: index))
    }
}

extension FieldTimes {
    /// `field`'s edit time as its column holds it: milliseconds since 1970.
    package func column(_ field: TodoField) -> DatabaseValue { self[field]?.millisecondsSince1970.databaseValue ?? .null }

    /// Sets `field`'s edit time from its column (`index`) in `row`.
    package mutating func set(_ field: TodoField, in row: Row, at index: Int) {
        guard let milliseconds = row[index] as Int64? else { return }
        self[field] = Date(millisecondsSince1970: milliseconds)
    }
}

/// How a todo maps to the `todo` table, made from the fields' table
/// (`TodoField`). Rows are decoded by position: by name (`row["text"]`),
/// GRDB looks each name up among the row's columns, and `todo export` of
/// 100,000 or 1,000,000 todos took 1.2x as long (BENCHMARKS.md, "The
/// shortcut audit").
extension TodoItem {
    /// The columns every todo query selects, in the order `init(row:)`
    /// reads them: the id, the text, the done mark, the dates and
    /// `idPrefixLength` first (raw readers expect them there: `RawTodoRow`),
    /// then the other fields, then every field's edit time.
    package static let selection = selectedColumns.map { "todo." + $0 }.joined(separator: ", ")

    private static let selectedColumns = ["id", "text", "isDone", "createdAt", "updatedAt", "completedAt", "idPrefixLength"]
        + TodoField.allCases.filter { $0 != .text && $0 != .done }.map(\.column) + TodoField.allCases.map(\.editedAtColumn)

    /// Where `init(row:)` finds each field and its edit time.
    private static let selectedPlaces = TodoField.allCases.map { field in
        (field: field, value: selectedColumns.firstIndex(of: field.column)!,
         time: selectedColumns.firstIndex(of: field.editedAtColumn)!)
    }

    /// How many columns `selection` names: a column selected after them is at this index.
    package static let selectionCount = selectedColumns.count

    /// The columns `databaseValues` fills, in its order: the id, the text's
    /// search key and the dates, then the fields outside the plan with their
    /// edit times, then the plan's (`TodoPlan`).
    private static let written = ["id", "searchText", "createdAt", "updatedAt", "completedAt"]
        + TodoField.unplanned.map(\.column) + TodoField.unplanned.map(\.editedAtColumn)
        + TodoField.planned.map(\.column) + TodoField.planned.map(\.editedAtColumn)

    package static let writtenColumns = written.joined(separator: ", ")

    /// The first `planlessCount` of them: all but the plan's.
    package static let planlessCount = written.count - 2 * TodoField.planned.count

    package static let planlessColumns = written.prefix(planlessCount).joined(separator: ", ")

    /// The plan's columns that hold its values (the others hold their edit times).
    package static let planValueColumns = TodoField.planned.map(\.column)

    /// How many values `databaseValues` holds: a value bound after them is `?` this plus one.
    package static let writtenCount = written.count

    /// The placeholders of an insert of `writtenColumns` and `idPrefixLength`.
    package static let insertMarks = Array(repeating: "?", count: writtenCount + 1).joined(separator: ", ")

    /// `UPDATE todo SET …` of every column `databaseValues` fills, by their
    /// numbers (`?1` is the id, for the WHERE clause).
    package static let updateAssignments = written.enumerated().dropFirst()
        .map { "\($0.element) = ?\($0.offset + 1)" }.joined(separator: ", ")

    /// Decodes a row selected with `selection`; nil if its ID is not a UUID.
    package init?(row: Row) {
        guard let id = UUID(parsing: row[0]) else { return nil }
        let completedAt: Int64? = row[5]
        self.init(
            id: id, text: "", createdAt: Date(millisecondsSince1970: row[3]), updatedAt: Date(millisecondsSince1970: row[4]),
            completedAt: completedAt.map(Date.init(millisecondsSince1970:))
        )
        for place in Self.selectedPlaces {
            set(place.field, in: row, at: place.value)
            editedAt.set(place.field, in: row, at: place.time)
        }
    }

    /// The values of the columns written by `insert` and `update`, in order:
    /// `writtenColumns`.
    package var databaseValues: StatementArguments {
        StatementArguments(writtenValues(withPlan: true))
    }

    /// The values of `writtenColumns`, or of the first `planlessCount` of them.
    package func writtenValues(withPlan plan: Bool) -> [DatabaseValue] {
        var values: [DatabaseValue] = [
            idString.databaseValue, TodoItem.searchKey(text).databaseValue, createdAt.millisecondsSince1970.databaseValue,
            updatedAt.millisecondsSince1970.databaseValue, completedAt?.millisecondsSince1970.databaseValue ?? .null,
        ]
        values.reserveCapacity(Self.writtenCount)
        func append(_ group: [TodoField]) {
            for field in group { values.append(column(field)) }
            for field in group { values.append(editedAt.column(field)) }
        }
        append(TodoField.unplanned)
        if plan { append(TodoField.planned) }
        return values
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
