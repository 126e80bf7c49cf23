import Foundation
import TodoCore

// MARK: - Subtasks and dependencies (RFC 9253)
// A parent is `RELATED-TO;RELTYPE=PARENT:<uid>` (RELTYPE may be left out:
// PARENT is its default, RFC 5545 3.2.15), a blocker is
// `RELATED-TO;RELTYPE=DEPENDS-ON:<uid>`. Only lines whose value is a todo's
// UUID are ours: another app's links (a CHILD, a SIBLING, a UID that is no
// UUID, and so no todo here) stay as they came.

extension VTodo {
    static let relatedProperty = "RELATED-TO"

    /// The relation a RELATED-TO line of ours holds, and the todo it names.
    enum Link: Equatable {
        case parent(UUID)
        case dependsOn(UUID)
    }

    /// The link `line` holds: to a UUID, or to a task `names` (by todo) calls
    /// by a UID of its own.
    static func link(_ line: ContentLine, named names: [String: UUID] = [:]) -> Link? {
        guard line.is(relatedProperty) else { return nil }
        let value = line.value.trimmedASCIIWhitespace
        guard let id = UUID(parsing: value) ?? names[value] else { return nil }
        switch line.parameter("RELTYPE")?.uppercased() {
        case nil, "PARENT": return .parent(id)
        case "DEPENDS-ON": return .dependsOn(id)
        default: return nil
        }
    }

    /// The parent and blockers `todo`'s RELATED-TO lines name.
    static func links(of todo: ICalendarComponent) -> (parent: UUID?, blockedBy: [UUID]) {
        var parent: UUID?
        var blockedBy: [UUID] = []
        for line in todo.properties(relatedProperty) {
            switch link(line) {
            case let .parent(id): if parent == nil { parent = id }
            case let .dependsOn(id): blockedBy.append(id)
            case nil: break
            }
        }
        return (parent, TodoLinks.normalized(blockedBy))
    }

    /// `todo` with its RELATED-TO lines of one relation (`parent`: PARENT,
    /// else DEPENDS-ON) naming `ids`: a line that names one still wanted
    /// stays as it was written (its UID's case included), one naming a todo
    /// no longer wanted goes, and the new ones are added where the first
    /// went. Of PARENT lines only the one read as the parent is ours; another
    /// app's lines stay. A todo the server knows by a UID of its own
    /// (`names`) is named by it, read and written.
    static func setLinks(_ todo: inout ICalendarComponent, parent: Bool, to ids: [UUID], names: [UUID: String] = [:]) {
        let byName = Dictionary(names.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        let wanted = Set(ids)
        var kept = Set<UUID>()
        var entries: [ICalendarComponent.Entry] = []
        var place: Int?
        var parentRead = false
        for entry in todo.entries {
            guard case let .property(line) = entry, let link = link(line, named: byName) else {
                entries.append(entry)
                continue
            }
            switch (link, parent) {
            case let (.parent(id), true) where !parentRead:
                parentRead = true
                if wanted.contains(id) {
                    kept.insert(id)
                    entries.append(entry)
                } else {
                    place = place ?? entries.count
                }
            case let (.dependsOn(id), false):
                if wanted.contains(id), kept.insert(id).inserted {
                    entries.append(entry)
                } else {
                    place = place ?? entries.count
                }
            default:
                entries.append(entry)
            }
        }
        let lines = ids.filter { !kept.contains($0) }.map { id in
            ICalendarComponent.Entry.property(ContentLine(
                name: relatedProperty, parameters: [.init(name: "RELTYPE", values: [parent ? "PARENT" : "DEPENDS-ON"])],
                value: names[id] ?? id.lowercasedString
            ))
        }
        let end = entries.lastIndex { if case .property = $0 { true } else { false } }.map { $0 + 1 } ?? 0
        entries.insert(contentsOf: lines, at: min(place ?? end, entries.count))
        todo.entries = entries
    }
}
