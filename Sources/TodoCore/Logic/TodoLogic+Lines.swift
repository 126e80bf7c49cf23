import Foundation

// MARK: - Actions from a line typed in a view

extension TodoLogic {
    /// Adds a todo from a line typed in a view: its text with the options
    /// `todo add` takes (`buy sushi --due fri #errands`, see `TodoEdit(line:)`).
    @discardableResult
    public func addTodo(line: String) async throws(TodoError) -> TodoItem {
        let edit = try await run { [environment] in
            try TodoEdit(line: line, now: environment.now(), timeZone: environment.timeZone)
        } then: { _ in }
        return try await addTodo(text: edit.text ?? "", fields: edit)
    }

    /// What a line typed in a view read of Taskwarrior's words (`Read
    /// due:fri as due Fri 4 Dec`), for the view to say; nil if none, or if
    /// the line is no edit. `text` is the todo's text before an edit.
    public func taskwarriorWordsSaid(inLine line: String, text: String = "") -> String? {
        let now = environment.now()
        return (try? TodoEdit.reading(line: line, text: text, now: now, timeZone: environment.timeZone))?
            .taskwarrior.said(now: now, timeZone: environment.timeZone)
    }

    /// Edits a todo from a line typed in a view: new text (or none, to keep
    /// it) with the options `todo edit` takes; `text` is its text before.
    @discardableResult
    public func editTodo(idPrefix: String, line: String, text: String = "") async throws(TodoError) -> TodoItem {
        let edit = try await run { [environment] in
            try TodoEdit(line: line, text: text, now: environment.now(), timeZone: environment.timeZone)
        } then: { _ in }
        return try await editTodo(idPrefix: idPrefix, edit: edit)
    }
}
