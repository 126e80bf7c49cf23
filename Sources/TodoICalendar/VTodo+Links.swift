import Foundation
import TodoCore

// MARK: - Subtasks and dependencies (RFC 9253)
// A parent is `RELATED-TO;RELTYPE=PARENT:<uid>` (RELTYPE may be left out:
// PARENT is its default, RFC 5545 3.2.15), a blocker is
// `RELATED-TO;RELTYPE=DEPENDS-ON:<uid>`: the UID of the task named, as
// written, a todo's UUID or any UID another app gave a task (`1001`,
// `task-7@host`). The first PARENT line is the parent; other relations (a
// CHILD, a SIBLING) and later PARENT lines are another app's and stay as
// they came.

extension VTodo {
    static let relatedProperty = "RELATED-TO"

    /// The relation a RELATED-TO line of ours holds, and the UID it names.
    enum Link: Equatable {
        case parent(String)
        case dependsOn(String)
    }

    static func link(_ line: ContentLine) -> Link? {
        guard line.is(relatedProperty) else { return nil }
        let uid = ICalendarText.unescape(line.value[...]).trimmedASCIIWhitespace
        guard !uid.isEmpty else { return nil }
        switch line.parameter("RELTYPE")?.uppercased() {
        case nil, "PARENT": return .parent(uid)
        case "DEPENDS-ON": return .dependsOn(uid)
        default: return nil
        }
    }

    /// What two UIDs are compared by: a UUID is one task in either case
    /// (Apple's apps write them in upper case); any other UID as written.
    public static func linkKey(_ uid: String) -> String {
        UUID(parsing: uid)?.lowercasedString ?? uid
    }

    /// The parent and blockers `todo`'s RELATED-TO lines name, each blocker once.
    static func links(of todo: ICalendarComponent) -> (parent: String?, blockedBy: [String]) {
        var parent: String?
        var blockedBy: [String] = []
        var seen = Set<String>()
        for line in todo.properties(relatedProperty) {
            switch link(line) {
            case let .parent(uid): if parent == nil { parent = uid }
            case let .dependsOn(uid): if seen.insert(linkKey(uid)).inserted { blockedBy.append(uid) }
            case nil: break
            }
        }
        return (parent, blockedBy)
    }

    /// `todo` with its RELATED-TO lines of one relation (`parent`: PARENT,
    /// else DEPENDS-ON) naming `uids`: a line that names one still wanted
    /// stays as it was written (its UID's case included), one naming a task
    /// no longer wanted goes, and the new ones are added where the first
    /// went. Of PARENT lines only the one read as the parent is ours; another
    /// app's lines stay. A line naming a UID `isForeign` says the writer
    /// cannot know (a task that is no todo of `todo sync`'s) is another
    /// app's too, and a new parent goes before such a line, so it is read first.
    static func setLinks(
        _ todo: inout ICalendarComponent, parent: Bool, to uids: [String], isForeign: (String) -> Bool = { _ in false }
    ) {
        let wanted = Set(uids.map(linkKey))
        var kept = Set<String>()
        var entries: [ICalendarComponent.Entry] = []
        var place: Int?
        var foreignParent: Int?
        var parentRead = false
        for entry in todo.entries {
            guard case let .property(line) = entry, let link = link(line) else {
                entries.append(entry)
                continue
            }
            switch (link, parent) {
            case let (.parent(uid), true) where !parentRead && isForeign(uid):
                foreignParent = foreignParent ?? entries.count
                entries.append(entry)
            case let (.parent(uid), true) where !parentRead:
                parentRead = true
                if wanted.contains(linkKey(uid)) {
                    kept.insert(linkKey(uid))
                    entries.append(entry)
                } else {
                    place = place ?? entries.count
                }
            case let (.dependsOn(uid), false) where !isForeign(uid):
                if wanted.contains(linkKey(uid)), kept.insert(linkKey(uid)).inserted {
                    entries.append(entry)
                } else {
                    place = place ?? entries.count
                }
            default:
                entries.append(entry)
            }
        }
        var added = Set<String>()
        let lines = uids.filter { !kept.contains(linkKey($0)) && added.insert(linkKey($0)).inserted }.map { uid in
            ICalendarComponent.Entry.property(ContentLine(
                name: relatedProperty, parameters: [.init(name: "RELTYPE", values: [parent ? "PARENT" : "DEPENDS-ON"])],
                value: ICalendarText.escape(uid)
            ))
        }
        let end = entries.lastIndex { if case .property = $0 { true } else { false } }.map { $0 + 1 } ?? 0
        entries.insert(contentsOf: lines, at: min(place ?? foreignParent ?? end, entries.count))
        todo.entries = entries
    }
}
