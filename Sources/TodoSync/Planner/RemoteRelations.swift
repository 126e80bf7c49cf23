import Foundation
import TodoCore

/// Links between CalDAV tasks that name each other by UIDs no UUID is
/// (`RemoteRelation`), as links between todos: a UID names the todo of the
/// item that carries it, read now or recorded by a base. A task's own
/// PARENT and DEPENDS-ON come first; a parent's CHILD gives a subtask read
/// now its parent when the subtask names none. Pure: the same items and
/// UIDs give the same links on every replica.
enum RemoteRelations {
    /// The items of `items` whose links the relations change, changed;
    /// `known` maps the UIDs the bases recorded to their todos.
    static func resolve(_ items: [UUID: RemoteTodo], known: [String: UUID]) -> [UUID: RemoteTodo] {
        let linking = items.filter { !$0.value.relations.isEmpty }.sorted { $0.key.orderKey < $1.key.orderKey }
        guard !linking.isEmpty else { return [:] }
        // A UID two items carry names the first in id order: the same on every replica.
        var byUID = known
        for (todoId, item) in items.sorted(by: { $0.key.orderKey < $1.key.orderKey }) {
            if let uid = item.uid, byUID[uid] == nil { byUID[uid] = todoId }
        }
        func todo(_ uid: String) -> UUID? {
            byUID[uid] ?? byUID[uid.trimmingCharacters(in: .whitespaces)] ?? UUID(parsing: uid)
        }
        var changed: [UUID: RemoteTodo] = [:]
        for (todoId, original) in linking {
            var item = original
            for relation in item.relations {
                guard let other = todo(relation.uid), other != todoId else { continue }
                switch relation.kind {
                case .parent: if item.fields.parent == nil { item.fields.parent = other }
                case .dependsOn: item.fields.blockedBy.append(other)
                case .child: break
                }
            }
            item.fields.blockedBy = TodoLinks.normalized(item.fields.blockedBy)
            if item != original { changed[todoId] = item }
        }
        for (todoId, item) in linking {
            for relation in item.relations where relation.kind == .child {
                guard let child = todo(relation.uid), child != todoId, var subtask = changed[child] ?? items[child],
                      subtask.fields.parent == nil, !subtask.relations.contains(where: { $0.kind == .parent }) else { continue }
                subtask.fields.parent = todoId
                changed[child] = subtask
            }
        }
        return changed
    }
}
