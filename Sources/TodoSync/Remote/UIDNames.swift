import Foundation
import Synchronization
import TodoICalendar

/// The names a server knows todos by where they are not their ids
/// (`RemoteTodo.uid`), by todo, as a sync learnt them (`RemoteTodos.useUIDs`).
struct LinkNames: Sendable {
    var byTodo: [UUID: String] = [:]
    /// The names, as links compare them (`VTodo.linkKey`): a link to one of
    /// them is a link to a todo here.
    var keys: Set<String> = []

    init(_ byTodo: [UUID: String] = [:]) {
        self.byTodo = byTodo
        keys = Set(byTodo.values.map(VTodo.linkKey))
    }

    /// How a link to `id` is written: the server's name for it, else its id.
    func name(_ id: UUID) -> String {
        byTodo[id] ?? id.lowercasedString
    }

    /// Whether a link names a task that is no todo here (neither a UUID nor
    /// one of these names): another app's, kept as it came.
    func isForeign(_ uid: String) -> Bool {
        UUID(parsing: uid) == nil && !keys.contains(VTodo.linkKey(uid))
    }
}

/// The link names of one sync, set before its writes: a link written to
/// one of those todos names it as the other apps know it.
final class UIDNames: Sendable {
    private let names = Mutex(LinkNames())

    func set(_ uids: [UUID: String]) {
        let names = LinkNames(uids)
        self.names.withLock { $0 = names }
    }

    var current: LinkNames { names.withLock { $0 } }

    func name(_ id: UUID) -> String { current.name(id) }
}
