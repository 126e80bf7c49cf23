import Foundation
import Testing
import TodoCore
import TodoTerminal
@testable import TodoUI

/// The view is a pure function: state and the view's own state in, lines out.
@Suite("Rendering")
struct RenderTests {
    static let size = TerminalSize(columns: 60, rows: 8)

    static func row(_ text: String, done: Bool = false, n: Int = 1, idLength: Int = 4) -> TodoWindow.Row {
        TodoWindow.Row(
            item: TodoItem(
                id: UUID(uuidString: String(format: "%08x-0000-4000-8000-000000000000", 0xabc0 + n))!,
                text: text, isDone: done, createdAt: Date(millisecondsSince1970: Int64(n))
            ),
            position: TodoPosition(createdAt: Int64(n), sequence: Int64(n)),
            shortIDLength: idLength
        )
    }

    func texts(_ lines: [Line]) -> [String] { lines.map(\.text) }

    /// A live view's header: how syncing goes, and when the last sync ended, in the view's time zone.
    @Test func theHeaderSaysHowLiveSyncingGoes() throws {
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let synced = Date(timeIntervalSince1970: 1_795_253_527) // 2026-11-21 09:32:07 UTC
        func status(_ live: LiveSyncStatus?, syncedAt: Date? = synced, syncing: Bool = false, stored: String? = nil) -> String {
            TodoView.syncStatus(
                TodoSnapshot(isSyncing: syncing, lastSyncedAt: syncedAt, live: live, timeZone: zone), ViewState(lastSyncAt: stored)
            )
        }
        #expect(status(.live) == "live · synced 10:32:07")
        #expect(status(.polling) == "auto-sync · synced 10:32:07")
        #expect(status(.offline) == "offline · synced 10:32:07")
        #expect(status(.failing) == "sync failed · synced 10:32:07")
        #expect(status(.connecting, syncedAt: nil, stored: "2026-11-20T18:05:00.000Z") == "connecting… · last sync 2026-11-20 18:05")
        #expect(status(.live, syncedAt: nil) == "live · not synced")
        #expect(status(.live, syncing: true) == "syncing…")
        // Not live: as before, the last sync's summary or its time.
        #expect(status(nil, syncedAt: nil, stored: "2026-11-20T18:05:00.000Z") == "last sync 2026-11-20 18:05")
    }

    @Test func everyFrameFillsTheTerminalExactly() {
        for size in [Self.size, TerminalSize(columns: 40, rows: 5), TerminalSize(columns: 13, rows: 3)] {
            let snapshot = TodoSnapshot(rows: [Self.row("buy milk"), Self.row("日本語のテキストがとても長い", n: 2)])
            let lines = TodoView.render(snapshot, ViewState(), size: size)
            #expect(lines.count == size.rows)
            #expect(lines.allSatisfy { $0.displayWidth == size.columns }, "\(texts(lines))")
        }
    }

    /// Long text gives way to the due date, priority and tags (at 100
    /// columns, as at 60); a tag typed with its `#` shows one `#`.
    @Test func longTextLeavesRoomForTheFields() throws {
        var row = Self.row(String(repeating: "a long todo text ", count: 8), n: 1)
        row.item.due = .day(CalendarDay(year: 2030, month: 1, day: 10)!)
        row.item.priority = .high
        row.item.tags = ["#hash", "home"]
        for columns in [100, 60] {
            let lines = TodoView.render(TodoSnapshot(rows: [row]), ViewState(), size: TerminalSize(columns: columns, rows: 5))
            #expect(lines[1].text.hasSuffix("due 2030-01-10 !high #hash #home"), "\(lines[1].text)")
            #expect(lines[1].text.contains("…"))
            #expect(lines[1].displayWidth == columns)
        }
        #expect(try TodoTags.validated("#hash") == "hash")
    }

    /// At 40 columns an error and the help wrap instead of being cut.
    @Test func aNarrowScreenWrapsTheErrorAndTheHelp() {
        let size = TerminalSize(columns: 40, rows: 12)
        let error = TodoError.nothingToUndoInView
        let lines = TodoView.render(TodoSnapshot(rows: [Self.row("buy milk")], error: error), ViewState(), size: size)
        let footer = lines.dropFirst(2).filter { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
        let shown = lines.map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(shown.contains("todo undo --list shows them"), "\(texts(lines))")
        #expect(footer.count > 1)
        #expect(lines.count == 12 && lines.allSatisfy { $0.displayWidth == 40 })
        var help = ViewState()
        help.mode = .help
        let helpShown = TodoView.render(TodoSnapshot(), help, size: TerminalSize(columns: 40, rows: 40))
            .map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(helpShown.contains("search: the list filters as you type; Enter keeps it, Esc clears it")
            || helpShown.replacingOccurrences(of: "  ", with: " ").contains("Esc clears it"), "\(helpShown)")
        #expect(helpShown.contains("Press any key to go back."))
    }

    @Test func anEmptyListSaysSoAndHowToAdd() {
        let lines = TodoView.render(TodoSnapshot(counts: TodoCounts(pending: 0, done: 0)), ViewState(), size: Self.size)
        #expect(lines[0].text.hasPrefix(" todo  0 pending · 0 done   showing pending"))
        #expect(lines[1].text.hasPrefix("  No pending todos. Press a to add one."))
        #expect(lines[7].text.hasPrefix(" j/k move  a add"))
    }

    @Test func theListShowsShortIDsDoneMarksAndTextNewestFirst() {
        let snapshot = TodoSnapshot(
            rows: [Self.row("call the bank", done: true, n: 2), Self.row("buy milk", n: 1, idLength: 5)],
            filter: .all, counts: TodoCounts(pending: 1, done: 1)
        )
        let lines = TodoView.render(snapshot, ViewState(), size: Self.size)
        #expect(lines[1].text.hasPrefix(" 0000   [x] call the bank"))
        #expect(lines[2].text.hasPrefix(" 0000a  [ ] buy milk"))
        // The first row is selected when nothing is yet.
        #expect(lines[1].spans.contains { $0.style.reverse && $0.text.contains("call the bank") })
        #expect(!lines[2].spans.contains { $0.style.reverse })
    }

    /// A started todo (`todo start`) is marked `[*]`, as the lists mark it; a
    /// done one stays `[x]`.
    @Test func aStartedTodoIsMarkedWithAStar() {
        var started = Self.row("write the report", n: 2)
        started.item.start = .moment(Date(millisecondsSince1970: 1_795_000_000_000))
        var finished = Self.row("call the bank", done: true, n: 1)
        finished.item.start = started.item.start
        let snapshot = TodoSnapshot(rows: [started, finished], filter: .all, counts: TodoCounts(pending: 1, done: 1))
        let lines = TodoView.render(snapshot, ViewState(), size: Self.size)
        #expect(lines[1].text.hasPrefix(" 0000  [*] write the report"), "\(texts(lines))")
        #expect(lines[2].text.hasPrefix(" 0000  [x] call the bank"), "\(texts(lines))")
    }

    @Test func rowsShowDuePriorityAndTagsAfterTheText() {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        func planned(_ text: String, n: Int, due: String, priority: TodoPriority?, tags: [String], done: Bool = false) -> TodoWindow.Row {
            var row = Self.row(text, done: done, n: n)
            row.item.due = TodoDue(text: due)
            row.item.priority = priority
            row.item.tags = tags
            return row
        }
        let snapshot = TodoSnapshot(
            rows: [
                planned("rent", n: 3, due: "2026-12-01", priority: .high, tags: ["bills", "home"]),
                planned("tax", n: 2, due: "2026-11-20", priority: nil, tags: []),
                planned("call", n: 1, due: "2027-01-04T13:30:00.000Z", priority: .low, tags: ["work"], done: true),
            ],
            filter: .all, today: CalendarDay(parsing: "2026-11-23")!, timeZone: berlin
        )
        let lines = TodoView.render(snapshot, ViewState(), size: TerminalSize(columns: 80, rows: 6))
        #expect(lines[1].text.hasPrefix(" 0000  [ ] rent  due 12-01 !high #bills #home "), "\(texts(lines))")
        #expect(lines[2].text.hasPrefix(" 0000  [ ] tax  due 11-20 "), "\(texts(lines))")
        #expect(lines[3].text.hasPrefix(" 0000  [x] call  due 2027-01-04 14:30 !low #work "), "\(texts(lines))")
        // Overdue in red; a future date, or a done todo's, is not.
        #expect(lines[2].spans.contains { $0.text == "  due 11-20" && $0.style.color == .red })
        #expect(lines[1].spans.contains { $0.text == "  due 12-01" && $0.style.color != .red })
        #expect(!lines[3].spans.contains { $0.style.color == .red })
        // Narrow, the fields are cut like the text, and the frame still fits.
        let narrow = TodoView.render(snapshot, ViewState(), size: TerminalSize(columns: 20, rows: 6))
        #expect(narrow.allSatisfy { $0.displayWidth == 20 })
    }

    @Test func anErrorShowsInRedInTheFooterWrappedWhole() throws {
        let snapshot = TodoSnapshot(rows: [Self.row("milk")], error: .emptyText)
        let lines = TodoView.render(snapshot, ViewState(), size: Self.size)
        let first = try #require(lines.firstIndex { $0.text.hasPrefix(" todo text is empty") })
        let footer = lines[first...]
        #expect(footer.map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == TodoError.emptyText.description)
        #expect(footer.allSatisfy { $0.spans[0].style.color == .red })
        #expect(lines.count == Self.size.rows && lines[1].text.contains("milk"))
    }

    @Test func anActiveQueryShowsInTheHeaderAndTheInputLine() {
        var view = ViewState()
        view.mode = .searching
        view.input = "mi"
        let snapshot = TodoSnapshot(rows: [Self.row("buy milk")], query: "mi")
        let lines = TodoView.render(snapshot, view, size: Self.size)
        #expect(lines[0].text.contains("query “mi”"))
        #expect(lines[7].text.hasPrefix(" / mi "))
        let none = TodoView.render(TodoSnapshot(query: "zz"), ViewState(), size: Self.size)
        #expect(none[1].text.hasPrefix("  No pending todos match “zz”."))
    }

    @Test func aSearchStillReadingOnSaysSoInTheListAndTheInputLine() {
        var view = ViewState()
        view.mode = .searching
        view.input = "jo"
        let lines = TodoView.render(TodoSnapshot(isComplete: false, query: "jo"), view, size: Self.size)
        #expect(lines[1].text.hasPrefix("  Searching…"))
        #expect(lines[7].text.hasPrefix(" / jo   searching…"))
        let done = TodoView.render(TodoSnapshot(query: "jo"), view, size: Self.size)
        #expect(done[1].text.hasPrefix("  No pending todos match “jo”."))
        #expect(!done[7].text.contains("searching"))
    }

    @Test func wideCharactersAndEmojiAreLaidOutByDisplayWidth() {
        let snapshot = TodoSnapshot(rows: [Self.row("日本語 👍🏽 e\u{301}"), Self.row("plain", n: 2)])
        let lines = TodoView.render(snapshot, ViewState(), size: TerminalSize(columns: 30, rows: 4))
        #expect(lines[1].text == " 0000  [ ] 日本語 👍🏽 e\u{301}        ")
        #expect(lines[1].displayWidth == 30)
    }

    @Test func longTextIsCutWithAnEllipsisAtAGraphemeBoundary() {
        let snapshot = TodoSnapshot(rows: [Self.row("日本語のテキストがとても長いです"), Self.row("a very long todo indeed", n: 2)])
        let lines = TodoView.render(snapshot, ViewState(), size: TerminalSize(columns: 24, rows: 4))
        #expect(lines[1].text == " 0000  [ ] 日本語のテキ…")
        #expect(lines[2].text == " 0000  [ ] a very long …")
    }

    @Test func aFortyColumnTerminalKeepsEveryLineFortyColumns() {
        let size = TerminalSize(columns: 40, rows: 6)
        let snapshot = TodoSnapshot(
            rows: [Self.row("buy milk"), Self.row("Straße & Crème brûlée for the party", n: 2)],
            query: "r", counts: TodoCounts(pending: 1200, done: 34000), isSyncing: true,
            syncProgress: SyncProgress(done: 3, total: 40)
        )
        let lines = TodoView.render(snapshot, ViewState(), size: size)
        #expect(texts(lines) == [
            " todo  1200 pending · 34000 done   show…",
            " 0000  [ ] buy milk                     ",
            " 0000  [ ] Straße & Crème brûlée for th…",
            "                                        ",
            "                                        ",
            " j/k move  a add  e edit  x done  d del…",
        ])
    }

    @Test func theSelectionStaysOnItsScreenRowWhileTheListAllows() {
        let rows = (1...20).map { Self.row("todo \($0)", n: $0) }
        var view = ViewState()
        view.selectedID = rows[10].id
        view.selectionRow = 3
        let lines = TodoView.render(TodoSnapshot(rows: rows, hasOlder: true), view, size: Self.size)
        #expect(lines[1 + 3].text.contains("todo 11"))
        #expect(lines[1 + 3].spans.contains { $0.style.reverse })
        #expect(lines[1].text.contains("todo 8"))
    }

    @Test func syncProgressAndItsSummaryShowInTheHeader() {
        let running = TodoSnapshot(isSyncing: true, syncProgress: SyncProgress(done: 3, total: 40))
        #expect(TodoView.render(running, ViewState(), size: TerminalSize(columns: 80, rows: 3))[0].text.contains("syncing 3/40…"))
        var summary = SyncSummary()
        summary.pulled = 2
        let done = TodoSnapshot(lastSync: summary)
        #expect(TodoView.render(done, ViewState(), size: TerminalSize(columns: 80, rows: 3))[0].text.contains("synced: 2 pulled, 0 pushed"))
    }

    @Test func theWriterWritesOnlyTheLinesThatChanged() {
        var writer = FrameWriter(usesColor: false)
        let size = TerminalSize(columns: 10, rows: 3)
        let first = writer.update(to: ["a", "b", "c"], size: size)
        #expect(first.contains("\u{1B}[2J"))
        #expect(writer.update(to: ["a", "b", "c"], size: size) == "")
        let second = writer.update(to: ["a", "B", "c"], size: size)
        #expect(second == "\u{1B}[2;1H\u{1B}[0mB\u{1B}[0m\u{1B}[K")
        // A line as wide as the screen is not followed by a clear, which
        // would erase its last column.
        #expect(writer.update(to: ["a", "B", "0123456789"], size: size) == "\u{1B}[3;1H\u{1B}[0m0123456789\u{1B}[0m")
        // A resize writes everything again.
        #expect(writer.update(to: ["a", "B", "c"], size: TerminalSize(columns: 12, rows: 3)).contains("\u{1B}[3;1H"))
    }

    @Test func withoutColourStylesStayButColoursGo() {
        var mono = FrameWriter(usesColor: false)
        var color = FrameWriter(usesColor: true)
        let line = Line("error", TextStyle(color: .red, bold: true))
        let size = TerminalSize(columns: 5, rows: 1)
        #expect(!mono.update(to: [line], size: size).contains("31"))
        #expect(color.update(to: [line], size: size).contains("\u{1B}[0;1;31m"))
    }
}

/// The line being typed edits as readline's does.
@Suite("The input line")
struct InputLineTests {
    @Test func theCursorMovesAndEditsAnywhere() {
        var line = InputLine("buy milk")
        for _ in 0..<5 { line.moveLeft() }
        line.deleteBackward()
        #expect(line.text == "bu milk" && line.cursor == 2)
        line.insert("y")
        line.insert("s")
        #expect(line.text == "buys milk")
        line.moveToStart()
        line.deleteForward()
        #expect(line.text == "uys milk" && line.cursor == 0)
        line.moveToEnd()
        line.deleteWordBackward()
        #expect(line.text == "uys ")
        line.insert("x")
        line.moveLeft()
        line.deleteToStart()
        #expect(line.text == "x" && line.cursor == 0)
        line.deleteToEnd()
        #expect(line.text.isEmpty)
        line.deleteBackward()
        line.moveLeft()
        #expect(line.cursor == 0)
    }

    /// The block shows where the cursor is; a long line shows what is around it.
    @Test func thePromptShowsTheCursorWhereItIs() {
        var view = ViewState()
        view.mode = .adding
        view.input = "buy oat milk"
        view.line.moveToStart()
        let footer = TodoView.render(TodoSnapshot(), view, size: TerminalSize(columns: 40, rows: 4)).last!
        #expect(footer.text.hasPrefix(" Add: buy oat milk"))
        #expect(footer.spans.contains { $0.text == "b" && $0.style.reverse })
        view.input = String(repeating: "word ", count: 20)
        view.line.moveToStart()
        let long = TodoView.render(TodoSnapshot(), view, size: TerminalSize(columns: 40, rows: 4)).last!
        #expect(long.text.hasPrefix(" Add: word word"))
        #expect(long.displayWidth == 40)
    }
}
