import TodoCore

extension TodoUIController {
    /// The edit a line typed to add or edit asks for (`TodoEdit(line:)`),
    /// read at the logic's clock, and what it read of Taskwarrior's words
    /// (`Read due:fri as due Fri 4 Dec`, nil if none); `text` is the todo's
    /// text before an edit. A line that reads as no edit is the state's
    /// error, shown as a failed action's is.
    func reading(line: String, text: String = "") -> (edit: TodoEdit, said: String?)? {
        let now = logic.environment.now(), timeZone = logic.environment.timeZone
        do {
            let (edit, words) = try TodoEdit.reading(line: line, text: text, now: now, timeZone: timeZone)
            return (edit, words.said(now: now, timeZone: timeZone))
        } catch {
            logic.state.actionFailed(error)
            return nil
        }
    }
}
