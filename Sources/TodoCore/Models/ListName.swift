import Foundation

/// A list: the unit people share, a phone shows as a task list, and a sync
/// binds to one place. A todo's list is its top-level project (`shopping`
/// for `shopping` and `shopping.weekly`); a todo with no project is on
/// `inbox`. No field holds it: it is read off the project.
public enum ListName {
    /// The list of the todos with no project.
    public static let inbox = "inbox"

    /// The list a todo of `project` is on.
    public static func of(project: String?) -> String {
        guard let project, !project.isEmpty else { return inbox }
        return String(project.prefix { $0 != "." })
    }

    /// A list's name as a person types it: a project of one part.
    public static func validated(_ raw: String) throws(TodoFieldError) -> String {
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard !name.contains("."), let project = try? TodoProject.validated(name) else { throw .badList(raw) }
        return project
    }
}
