import Foundation

/// How an import settles a todo that is here already: field by field,
/// against what the last import of that todo saw (its base), as sync settles
/// an item against its sync base.
///
/// - A field the file holds as the base did is the file's old news: the value
///   here stays, whatever was done to it here since.
/// - A field only the file changed since the base takes the file's value.
/// - A field both changed is a conflict: the later edit wins (here's on a
///   tie), and the conflict is reported.
/// - With no base (a todo never imported, or imported before bases were
///   kept), a field that differs is taken from the file if the file's todo
///   is later than the field here; a field edited here at all is reported
///   as a conflict, as nobody can tell which side changed it.
/// - A file's todo older than the base (an older export) changes nothing.
/// - A mix that would break a rule the todo keeps (`TodoItem.ruleViolation`)
///   keeps the todo as it is here, each difference reported as a conflict.
public struct ImportMerge: Sendable, Equatable {
    /// A field both sides changed, and what was kept.
    public struct Conflict: Sendable, Equatable {
        public var field: TodoField
        /// The values here and in the file, as conflicts show them.
        public var here: String
        public var file: String
        public var keptHere: Bool

        public init(field: TodoField, here: String, file: String, keptHere: Bool) {
            (self.field, self.here, self.file, self.keptHere) = (field, here, file, keptHere)
        }
    }

    /// The todo as the import leaves it.
    public private(set) var merged: TodoItem
    /// The fields taken from the file, in `TodoField`'s order.
    public private(set) var taken: [TodoField] = []
    public private(set) var conflicts: [Conflict] = []

    /// Whether the file's todo is older than what the last import saw of it
    /// (an older export imported after a newer one): then it changes nothing.
    public private(set) var isStale = false

    public init(here: TodoItem, lastImported base: ImportBase?, file: TodoItem) {
        merged = here
        if let base, file.updatedAt < base.updatedAt {
            isStale = true
            return
        }
        for field in TodoField.allCases where !file.holdsSame(field, as: here) {
            let fileTime = file.editedAt[field] ?? file.updatedAt
            let hereTime = here.editedAt[field] ?? here.updatedAt
            let conflict: Bool
            let known = base?.holdsSame(field, as: file)
            if let known {
                // The file's old news: what here did since is kept.
                if known { continue }
                conflict = base?.holdsSame(field, as: here) == false
            } else {
                conflict = here.editedAt[field] != nil
            }
            // Without a base, the later value wins even when only one side edited it.
            let takesFile = (!conflict && known != nil) || fileTime > hereTime
            if conflict {
                conflicts.append(Conflict(field: field, here: here[field], file: file[field], keptHere: !takesFile))
            }
            guard takesFile else { continue }
            merged.take(field, from: file)
            // Stamped later than the value it replaces, so a sync sends it on.
            merged.editedAt[field] = here.editedAt[field]
            merged.editedAt.stamp(field, at: fileTime)
            taken.append(field)
        }
        // A mix of the two that breaks a rule (a repeat whose due date was
        // cleared here) keeps the todo as it is here, every difference said.
        if merged.ruleViolation != nil {
            merged = here
            taken = []
            conflicts = TodoField.allCases.filter { !file.holdsSame($0, as: here) }.map {
                Conflict(field: $0, here: here[$0], file: file[$0], keptHere: true)
            }
        }
        if !taken.isEmpty {
            merged.updatedAt = max(here.updatedAt, merged.editedAt.latest ?? here.updatedAt)
        }
    }

    /// Whether the import changes the todo here.
    public var changes: Bool { !taken.isEmpty }
}
