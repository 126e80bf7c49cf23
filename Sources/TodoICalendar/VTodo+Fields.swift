import Foundation
import TodoCore

extension VTodoFields {
    /// A field's value in JSON's form (`FieldValue`), links as the UIDs they
    /// name: how the two sides of the mapping (a todo's JSON on todo-server,
    /// a todo's fields in `todo sync`) read and set a task field by field.
    /// A value the field cannot hold leaves it empty.
    public subscript(field: TodoField) -> FieldValue {
        get {
            func optional(_ text: String?) -> FieldValue { text.map(FieldValue.text) ?? .none }
            return switch field {
            case .text: .text(text)
            case .done: .flag(isDone)
            case .tags: .list(tags)
            case .note: optional(note)
            case .priority: optional(priority?.rawValue)
            case .recurrence: optional(recurrence?.description)
            case .project: optional(project)
            case .parent: optional(parent)
            case .blockedBy: .list(blockedBy)
            case .due, .wait, .scheduled, .until, .start: optional(date(field)?.text)
            }
        }
        set {
            var text: String? { if case let .text(text) = newValue { text } else { nil } }
            var list: [String] { if case let .list(list) = newValue { list } else { [] } }
            switch field {
            case .text: self.text = text ?? ""
            case .done: if case let .flag(flag) = newValue { isDone = flag } else { isDone = false }
            case .tags: tags = list
            case .note: note = text
            case .priority: priority = text.flatMap(TodoPriority.init(parsing:))
            case .recurrence: recurrence = text.flatMap(TodoRepeat.init(parsing:))
            case .project: project = text
            case .parent: parent = text
            case .blockedBy: blockedBy = list
            case .due, .wait, .scheduled, .until, .start: self[keyPath: Self.path(ofDate: field)!] = text.flatMap(TodoDue.init(text:))
            }
        }
    }
}
