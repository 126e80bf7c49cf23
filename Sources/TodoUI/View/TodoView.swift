import Foundation
import TodoCore
import TodoTerminal

/// The screen, drawn whole from the state, the view's own state and the
/// terminal's size: a header, the list, and a footer.
///
///      todo  12 pending · 3 done   pending   query “mi”         synced 14:02
///      3f2a  [ ] buy milk
///      91bc  [x] call the bank
///      j/k move  a add  e edit  x done  d delete  u undo  / search  ? help  q quit
///
/// A pure function: no terminal, no database. `FrameWriter` turns two frames
/// into what changed.
public enum TodoView {
    /// The lines of the frame, exactly `size.rows` of them, each `size.columns` wide.
    public static func render(_ snapshot: TodoSnapshot, _ view: ViewState, size: TerminalSize) -> [Line] {
        let width = size.columns
        guard size.rows > 0, width > 0 else { return [] }
        if view.mode == .help {
            return helpLines(size: size)
        }
        if view.mode == .details, let row = snapshot.rows.first(where: { $0.id == view.selectedID }) ?? snapshot.rows.first {
            return detailLines(row.item, size: size, today: snapshot.today, timeZone: snapshot.timeZone)
        }
        var lines = [header(snapshot, view).fitted(toWidth: width, fill: headerStyle)]
        // An error or a message longer than the width wraps, over the list's last rows.
        let footer = size.rows > 1 ? footerLines(snapshot, view, width: width, most: max(1, size.rows / 2)) : []
        let listHeight = max(0, size.rows - 1 - footer.count)
        lines += list(snapshot, view, width: width, height: listHeight)
        lines += footer
        return Array(lines.prefix(size.rows))
    }

    /// How many todo rows fit on a screen of `size`.
    public static func listHeight(for size: TerminalSize) -> Int {
        max(1, size.rows - 2)
    }

    static let headerStyle = TextStyle(reverse: true)

    // MARK: - List

    static func list(_ snapshot: TodoSnapshot, _ view: ViewState, width: Int, height: Int) -> [Line] {
        guard height > 0 else { return [] }
        let rows = visibleRows(snapshot.rows, unfolded: view.unfolded)
        guard !rows.isEmpty else {
            let empty = !snapshot.isComplete
                ? "Searching…"
                : snapshot.query.isEmpty
                ? "No \(snapshot.filter == .all ? "" : filterName(snapshot.filter) + " ")todos. Press a to add one."
                : "No \(snapshot.filter == .all ? "" : filterName(snapshot.filter) + " ")todos match “\(snapshot.query)”."
            return [Line("  " + empty, TextStyle(dim: true)).fitted(toWidth: width)]
                + Array(repeating: Line("").fitted(toWidth: width), count: height - 1)
        }
        let selectedIndex = view.selectedID.flatMap { id in rows.firstIndex { $0.row.id == id } }
        let layout = ListLayout(
            count: rows.count, selected: selectedIndex ?? 0, preferredRow: view.selectionRow,
            height: height, hasOlder: snapshot.hasOlder
        )
        let shown = rows[layout.top..<min(rows.count, layout.top + height)]
        let idWidth = shown.map(\.row.shortIDLength).max() ?? TodoID.minimumPrefixLength
        var lines = shown.enumerated().map { offset, tree in
            self.row(
                tree.row, idWidth: idWidth, selected: layout.top + offset == layout.selected, width: width,
                today: snapshot.today, timeZone: snapshot.timeZone,
                tree: (tree.depth, tree.subtasks, view.unfolded.contains(tree.row.id))
            )
        }
        lines += Array(repeating: Line("").fitted(toWidth: width), count: height - lines.count)
        return lines
    }

    /// ` 3f2a  [x] call the bank  due 12-01 !high +work #home`, the selected one in
    /// reverse video; a due date before `today` in red.
    ///
    /// A subtask is indented two spaces a level; a parent shows `▸ 2` while
    /// its subtasks are folded away, `▾` while they show.
    static func row(
        _ row: TodoWindow.Row, idWidth: Int, selected: Bool, width: Int,
        today: CalendarDay, timeZone: TimeZone, tree: (depth: Int, subtasks: Int, unfolded: Bool) = (0, 0, false)
    ) -> Line {
        let item = row.item
        let done = item.isDone
        let id = row.shortID
        var spans = [
            Span(" "),
            Span(id, TextStyle(color: .yellow, reverse: selected)),
            Span(String(repeating: " ", count: max(0, idWidth - id.count) + 2)),
            // Started (`todo start`): `[*]`, as the lists mark it.
            Span(done ? "[x]" : item.start != nil ? "[*]" : "[ ]", TextStyle(color: done ? .green : nil, reverse: selected)),
            Span(" " + String(repeating: "  ", count: min(tree.depth, 10))),
        ]
        if tree.subtasks > 0 {
            spans.append(Span(tree.unfolded ? "▾ " : "▸ \(tree.subtasks) ", TextStyle(color: .cyan)))
        }
        var fields: [Span] = []
        if let due = item.due {
            let overdue = !done && due.day(in: timeZone) < today
            fields.append(Span("  due " + due.shortText(today: today, in: timeZone), TextStyle(color: overdue ? .red : .cyan)))
        }
        if let priority = item.priority {
            fields.append(Span(" !" + priority.rawValue, TextStyle(bold: priority == .high)))
        }
        if let project = item.project {
            fields.append(Span(" +" + project, TextStyle(color: .green)))
        }
        if !item.tags.isEmpty {
            fields.append(Span(" " + item.tags.map { $0.hasPrefix("#") ? $0 : "#" + $0 }.joined(separator: " "), TextStyle(dim: true)))
        }
        // Long text gives way to the due date, priority and tags, down to a
        // few characters of its own; on a narrower screen the fields go first.
        let used = Line(spans).displayWidth
        let fieldsWidth = Line(fields).displayWidth
        var text = item.text
        if used + text.displayWidth + fieldsWidth > width, width - used - fieldsWidth >= Self.shortestText {
            text = text.truncated(toWidth: width - used - fieldsWidth)
        }
        spans.append(Span(text, TextStyle(dim: done && !selected, reverse: selected)))
        spans += fields
        spans = spans.map { span in
            var span = span
            if selected { span.style.reverse = true }
            return span
        }
        return Line(spans).fitted(toWidth: width, fill: TextStyle(reverse: selected))
    }

    // MARK: - Footer

    static let keysLine = "j/k move  a add  e edit  x done  d delete  u undo  / search  tab filter  s sync  r reload  ? help  q quit"

    /// The deletions the last sync held back, while the view asks about them
    /// (until `Esc` leaves them or a sync makes them).
    static func asked(_ snapshot: TodoSnapshot, _ view: ViewState) -> HeldDeletions? {
        guard let held = snapshot.lastSync?.heldBack, held != view.dismissedHold else { return nil }
        return held
    }

    /// The fewest characters of a todo's text a row shows before its fields give way.
    static let shortestText = 12

    /// The footer's lines: one, or an error or a message wrapped to the width
    /// (at most `most` lines).
    static func footerLines(_ snapshot: TodoSnapshot, _ view: ViewState, width: Int, most: Int) -> [Line] {
        let line = footer(snapshot, view, width: width)
        guard line.displayWidth > width, view.mode == .browsing || view.mode == .help,
              snapshot.error != nil || view.message != nil || asked(snapshot, view) != nil else { return [line.fitted(toWidth: width)] }
        let style = line.spans.first?.style ?? .plain
        let wrapped = String(line.text.dropFirst()).wrapped(toWidth: max(1, width - 1)).prefix(most)
        return wrapped.map { Line(" " + $0, style).fitted(toWidth: width) }
    }

    static func footer(_ snapshot: TodoSnapshot, _ view: ViewState, width: Int) -> Line {
        switch view.mode {
        case .searching:
            // A search still reading on: said after the cursor.
            return prompt("/ ", view.line, width: width, note: snapshot.isComplete ? nil : "searching…")
        case .adding:
            return prompt("Add: ", view.line, width: width)
        case .editing:
            return prompt("Edit: ", view.line, width: width)
        case .browsing, .help, .details:
            if let error = snapshot.error {
                return Line(" " + error.viewWords, TextStyle(color: .red, bold: true))
            }
            if let message = view.message {
                return Line(" " + message)
            }
            if let held = asked(snapshot, view) {
                return Line(
                    " The sync held back deletions: it \(held). F deletes them, as todo sync --force would; Esc leaves them",
                    TextStyle(color: .yellow, bold: true)
                )
            }
            return Line(" " + keysLine, TextStyle(dim: true))
        }
    }

    /// The line being typed, with a block where the cursor is; a line too
    /// long for the width shows the part around the cursor, `…` for the rest.
    static func prompt(_ label: String, _ line: InputLine, width: Int, note: String? = nil) -> Line {
        let noteSpan = note.map { Span("  " + $0, TextStyle(dim: true)) }
        let room = width - label.displayWidth - 1 - (noteSpan?.text.displayWidth ?? 0)
        let after = line.afterCursor
        let under = after.first.map(String.init) ?? " "
        var before = String(line.beforeCursor)
        // The cursor and what is before it first; what follows in the room left.
        if before.displayWidth + under.displayWidth > room, room > 2 {
            var tail = ""
            var used = 1 + under.displayWidth
            for character in before.reversed() {
                used += character.displayWidth
                if used > room { break }
                tail.insert(character, at: tail.startIndex)
            }
            before = "…" + tail
        }
        var rest = String(after.dropFirst())
        let left = room - before.displayWidth - under.displayWidth
        if rest.displayWidth > left { rest = left > 1 ? rest.truncated(toWidth: left) : "" }
        return Line([Span(" " + label, TextStyle(bold: true)), Span(before), Span(under, TextStyle(reverse: true)), Span(rest)]
            + (noteSpan.map { [$0] } ?? []))
    }

    // MARK: - Details

    /// Every field of a todo, one a line, and its note on lines of its own,
    /// as `todo show` prints them; wrapped to the width.
    static func detailLines(_ item: TodoItem, size: TerminalSize, today: CalendarDay, timeZone: TimeZone) -> [Line] {
        func time(_ date: Date) -> String { ISO8601.string(from: date) }
        var text = [
            "ID         \(item.idString)",
            "Text       \(item.text)",
            "Status     \(item.isDone ? "done" : item.start.map { "started " + $0.shortText(today: today, in: timeZone) } ?? "pending")",
            "Due        \(item.due.map { $0.shortText(today: today, in: timeZone) } ?? "none")",
            "Priority   \(item.priority?.rawValue ?? "none")",
            "Tags       \(item.tags.isEmpty ? "none" : item.tags.map { $0.hasPrefix("#") ? $0 : "#" + $0 }.joined(separator: " "))",
            "Repeat     \(item.recurrence?.words ?? "none")",
        ]
        // The fields a Taskwarrior user plans with, only when set: the screen is short.
        if let project = item.project { text.append("Project    \(project)") }
        for field in TodoField.detailDates {
            if let date = item.date(field) {
                text.append(field.label.padding(toLength: 11, withPad: " ", startingAt: 0) + date.shortText(today: today, in: timeZone))
            }
        }
        text += ["Created    \(time(item.createdAt))", "Updated    \(time(item.updatedAt))"]
        if let completedAt = item.completedAt { text.append("Completed  \(time(completedAt))") }
        if let note = item.note {
            text.append("Note")
            text += note.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        } else {
            text.append("Note       none")
        }
        text += ["", "Press any key to go back."]
        let wrapped = text.flatMap { line in line.isEmpty ? [line] : line.wrapped(toWidth: max(1, size.columns - 1)) }
        let lines = wrapped.prefix(size.rows).map { Line(" " + $0).fitted(toWidth: size.columns) }
        return lines + Array(repeating: Line("").fitted(toWidth: size.columns), count: size.rows - lines.count)
    }

    // MARK: - Help

    static let helpText = [
        "Keys",
        "",
        "  j, k, ↓, ↑        move the selection",
        "  g, G, Home, End   first, last todo",
        "  PgUp, PgDn        a page up, down",
        "  /                 search: the list filters as you type; Enter keeps it, Esc clears it",
        "  a                 add a todo: buy sushi --due fri #errands (Enter saves, Esc cancels)",
        "  Enter             every field of the selected todo, and its note (of a folded parent: unfolds it)",
        "  → / ←             unfold / fold a parent's subtasks (← on a subtask folds its parent)",
        "  e                 edit the selected todo (text, and --due, --priority, #tag…)",
        "  x, Space          mark the selected todo done or not done",
        "  d                 delete the selected todo",
        "  u                 undo the last change made since this view opened",
        "  U, Ctrl-R         redo what u took back (older changes: todo undo)",
        "  Tab               show pending, done, all",
        "  s                 sync with the server todo sync last used",
        "  F                 make the deletions a sync held back (as todo sync --force); Esc leaves them",
        "  r                 reload",
        "  q, Ctrl-C         quit",
        "",
        "Changes made elsewhere appear within a second. Press any key to go back.",
    ]

    static func helpLines(size: TerminalSize) -> [Line] {
        // Wrapped, not cut, on a narrow screen: each key's words under its own.
        let wrapped = helpText.flatMap { text -> [String] in
            guard text.displayWidth > size.columns - 1, size.columns > 20 else { return [text] }
            let lead = text.hasPrefix("  ") ? String(repeating: " ", count: 4) : ""
            let parts = text.wrapped(toWidth: size.columns - 1 - lead.count)
            return [parts[0]] + parts.dropFirst().map { lead + $0 }
        }
        let lines = wrapped.prefix(size.rows).map { Line(" " + $0).fitted(toWidth: size.columns) }
        return lines + Array(repeating: Line("").fitted(toWidth: size.columns), count: size.rows - lines.count)
    }
}
