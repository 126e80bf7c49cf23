import Foundation
import Testing
import TodoCore
import TodoInterchange

/// `task export` output read exactly: the fields a todo takes from each task.
@Suite("Taskwarrior import")
struct TaskwarriorTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    static func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    /// As Taskwarrior 2.6 writes it: one task a line, inside an array.
    static let export = """
        [
        {"id":1,"description":"pay rent","due":"20261214T230000Z","entry":"20261123T195611Z","modified":"20261123T195700Z","priority":"H","project":"home.garden","status":"pending","uuid":"cc25735c-9a6d-47b4-a0a7-8289d666cc91","annotations":[{"entry":"20261123T195611Z","description":"IBAN in mail"},{"entry":"20261124T090000Z","description":"second note"}],"tags":["bills","urgent"],"urgency":11.2},
        {"id":2,"description":"call mom","due":"20261215T133000Z","entry":"20261123T195611Z","modified":"20261123T195611Z","priority":"L","status":"waiting","uuid":"f6b6c06b-5129-4964-aab2-ebef61582b67","urgency":4.2},
        {"id":3,"description":"water plants","due":"20261130T230000Z","entry":"20261123T195611Z","mask":"-","modified":"20261123T195611Z","recur":"weekly","rtype":"periodic","status":"recurring","uuid":"387470fa-43db-4a3a-a1fd-2b1b8a49ec3d","urgency":5.5},
        {"id":4,"description":"water plants","due":"20261130T230000Z","entry":"20261123T195611Z","imask":0,"modified":"20261123T195611Z","parent":"387470fa-43db-4a3a-a1fd-2b1b8a49ec3d","recur":"weekly","rtype":"periodic","status":"pending","uuid":"a42ce24c-c134-4fd3-ae45-f405c7c6a71f","urgency":5.5},
        {"id":0,"description":"old thing","end":"20261123T200000Z","entry":"20261120T100000Z","modified":"20261123T200000Z","status":"completed","uuid":"e971013a-bcb7-43a3-9fee-a1289156bd88","urgency":0},
        {"id":0,"description":"to delete","end":"20261123T195611Z","entry":"20261123T195611Z","modified":"20261123T195611Z","status":"deleted","uuid":"16b4392f-32e8-4af8-91df-88521fc819f0","urgency":0}
        ]
        """

    @Test func everyFieldOfAnExportIsRead() throws {
        let items = try Taskwarrior.todos(fromExport: Data(Self.export.utf8), timeZone: Self.berlin)
        #expect(items.map(\.text) == ["pay rent", "call mom", "water plants", "old thing"])
        #expect(items == [
            TodoItem(
                id: UUID(uuidString: "cc25735c-9a6d-47b4-a0a7-8289d666cc91")!, text: "pay rent",
                createdAt: Self.date("2026-11-23T19:56:11Z"), updatedAt: Self.date("2026-11-23T19:57:00Z"),
                // 23:00 UTC is midnight in Berlin: the 15th, as a date.
                due: .day(CalendarDay(year: 2026, month: 12, day: 15)!), priority: .high,
                tags: ["bills", "urgent"], note: "2026-11-23 IBAN in mail\n2026-11-24 second note", project: "home.garden"
            ),
            TodoItem(
                id: UUID(uuidString: "f6b6c06b-5129-4964-aab2-ebef61582b67")!, text: "call mom",
                createdAt: Self.date("2026-11-23T19:56:11Z"),
                due: .moment(Self.date("2026-12-15T13:30:00Z")), priority: .low
            ),
            TodoItem(
                id: UUID(uuidString: "a42ce24c-c134-4fd3-ae45-f405c7c6a71f")!, text: "water plants",
                createdAt: Self.date("2026-11-23T19:56:11Z"),
                due: .day(CalendarDay(year: 2026, month: 12, day: 1)!), recurrence: TodoRepeat(parsing: "weekly")
            ),
            TodoItem(
                id: UUID(uuidString: "e971013a-bcb7-43a3-9fee-a1289156bd88")!, text: "old thing", isDone: true,
                createdAt: Self.date("2026-11-20T10:00:00Z"), updatedAt: Self.date("2026-11-23T20:00:00Z"),
                completedAt: Self.date("2026-11-23T20:00:00Z")
            ),
        ])
    }

    /// Taskwarrior makes several pending instances of a series ahead
    /// (`recurrence.limit`), in any order in the export: one repeating todo
    /// comes of them, the earliest, as completing it here brings the next.
    @Test func aRecurringSeriesIsOneRepeatingTodo() throws {
        let template = "387470fa-43db-4a3a-a1fd-2b1b8a49ec3d"
        func instance(_ uuid: String, due: String, status: String = "pending") -> String {
            #"{"description":"water plants","due":"\#(due)","entry":"20261120T100000Z","modified":"20261120T100000Z","parent":"\#(template)","recur":"3d","status":"\#(status)","uuid":"\#(uuid)"}"#
        }
        let export = "[" + [
            instance("b42ce24c-c134-4fd3-ae45-f405c7c6a71f", due: "20261128T230000Z"),
            #"{"description":"water plants","due":"20261122T230000Z","entry":"20261120T100000Z","recur":"3d","status":"recurring","uuid":"\#(template)"}"#,
            instance("a42ce24c-c134-4fd3-ae45-f405c7c6a71f", due: "20261125T230000Z"),
            instance("c42ce24c-c134-4fd3-ae45-f405c7c6a71f", due: "20261122T230000Z", status: "completed"),
            instance("d42ce24c-c134-4fd3-ae45-f405c7c6a71f", due: "20261201T230000Z"),
        ].joined(separator: ",\n") + "]"
        let items = try Taskwarrior.todos(fromExport: Data(export.utf8), timeZone: Self.berlin)
        let repeating = items.filter { $0.recurrence != nil && !$0.isDone }
        #expect(repeating.map(\.idString) == ["a42ce24c-c134-4fd3-ae45-f405c7c6a71f"])
        #expect(repeating.first?.due == .day(CalendarDay(year: 2026, month: 11, day: 26)!))
        // The completed instance is history, kept as a done todo.
        #expect(items.filter(\.isDone).map(\.idString) == ["c42ce24c-c134-4fd3-ae45-f405c7c6a71f"])
        #expect(items.count == 2)
    }

    /// Wait, scheduled and until are the todo's, read as due is, start
    /// (`task start`) its start, a moment, and depends its blockers.
    @Test func plannedFieldsAndTheStartAreTheTodos() throws {
        let export = """
            [{"description":"a","entry":"20261123T195611Z","status":"pending","uuid":"cc25735c-9a6d-47b4-a0a7-8289d666cc91","wait":"20261201T000000Z","depends":"f6b6c06b-5129-4964-aab2-ebef61582b67"},
             {"description":"b","entry":"20261123T195611Z","status":"waiting","uuid":"f6b6c06b-5129-4964-aab2-ebef61582b67","wait":"20261201T000000Z","scheduled":"20261130T000000Z","depends":["cc25735c-9a6d-47b4-a0a7-8289d666cc91"]},
             {"description":"c","entry":"20261123T195611Z","status":"pending","uuid":"e971013a-bcb7-43a3-9fee-a1289156bd88","until":"20261230T000000Z","start":"20261124T000000Z"}]
            """
        let read = try Taskwarrior.read(Data(export.utf8), timeZone: Self.berlin)
        #expect(read.todos.count == 3)
        #expect(read.todos.map(\.start) == [nil, nil, .moment(Self.date("2026-11-24T00:00:00Z"))])
        // `depends`, joined by commas (2.6) or an array (3), are the todo's blockers.
        #expect(read.todos.map(\.blockedBy) == [
            [UUID(parsing: "f6b6c06b-5129-4964-aab2-ebef61582b67")!], [UUID(parsing: "cc25735c-9a6d-47b4-a0a7-8289d666cc91")!], [],
        ])
        // Midnight UTC is 01:00 in Berlin: moments.
        #expect(read.todos.map(\.wait) == [.moment(Self.date("2026-12-01T00:00:00Z")), .moment(Self.date("2026-12-01T00:00:00Z")), nil])
        #expect(read.todos.map(\.scheduled) == [nil, .moment(Self.date("2026-11-30T00:00:00Z")), nil])
        let utc = try Taskwarrior.read(Data(export.utf8), timeZone: TimeZone(identifier: "UTC")!)
        #expect(utc.todos.map(\.until) == [nil, nil, .day(CalendarDay(year: 2026, month: 12, day: 30)!)])
    }

    @Test func theSameDueIsADateOrAMomentByTheTimeZone() throws {
        let task = #"[{"description":"x","due":"20261214T230000Z","entry":"20261123T195611Z","status":"pending","uuid":"cc25735c-9a6d-47b4-a0a7-8289d666cc91"}]"#
        let utc = try Taskwarrior.todos(fromExport: Data(task.utf8), timeZone: TimeZone(identifier: "UTC")!)
        #expect(utc[0].due == .moment(Self.date("2026-12-14T23:00:00Z")))
        let berlin = try Taskwarrior.todos(fromExport: Data(task.utf8), timeZone: Self.berlin)
        #expect(berlin[0].due == .day(CalendarDay(year: 2026, month: 12, day: 15)!))
    }

    @Test func oneTaskALineWithoutAnArrayIsReadToo() throws {
        let lines = Self.export.split(separator: "\n").dropFirst().dropLast().joined(separator: "\n")
        let items = try Taskwarrior.todos(fromExport: Data(lines.utf8), timeZone: Self.berlin)
        #expect(items == (try Taskwarrior.todos(fromExport: Data(Self.export.utf8), timeZone: Self.berlin)))
    }

    @Test(arguments: [
        ("daily", "daily"), ("weekly", "weekly"), ("monthly", "monthly"), ("yearly", "yearly"), ("annual", "yearly"),
        ("2d", "2d"), ("3wks", "3w"), ("2w", "2w"), ("1wk", "weekly"), ("6mo", "6m"), ("2m", "2m"), ("3months", "3m"),
        ("quarterly", "3m"), ("2q", "6m"), ("biweekly", "2w"), ("fortnight", "2w"), ("semiannual", "6m"),
        ("biannual", "2y"), ("2yrs", "2y"), ("day", "daily"), ("5days", "5d"),
        ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("1000d", "FREQ=DAILY;INTERVAL=1000"),
    ])
    func recurBecomesARepeat(recur: String, repeats: String) {
        #expect(Taskwarrior.repeating(recur)?.description == repeats)
    }

    @Test(arguments: ["3h", "30min", "10000d", "0d", "often"])
    func recurWithoutARepeatOfItsOwn(recur: String) {
        #expect(Taskwarrior.repeating(recur) == nil)
    }

    @Test func aRecurThatCannotBeARepeatIsKeptInTheNote() throws {
        let task = #"[{"description":"stand-up","due":"20261124T080000Z","entry":"20261123T195611Z","recur":"3h","status":"pending","uuid":"cc25735c-9a6d-47b4-a0a7-8289d666cc91"}]"#
        let item = try #require(try Taskwarrior.todos(fromExport: Data(task.utf8), timeZone: Self.berlin).first)
        #expect(item.recurrence == nil)
        #expect(item.note == "Taskwarrior recur: 3h")
    }

    /// Taskwarrior's `weekdays`: Monday to Friday, the same rule a phone writes.
    @Test func weekdaysImportAsMondayToFriday() throws {
        let task = #"[{"description":"stand-up","due":"20261124T080000Z","entry":"20261123T195611Z","recur":"weekdays","status":"pending","uuid":"cc25735c-9a6d-47b4-a0a7-8289d666cc91"}]"#
        let item = try #require(try Taskwarrior.todos(fromExport: Data(task.utf8), timeZone: Self.berlin).first)
        #expect(item.recurrence?.words == "weekdays" && item.note == nil)
    }

    @Test func aBadTaskIsReportedOnItsLine() {
        let bad = Self.export.replacingOccurrences(of: #""status":"waiting""#, with: #""status":"sleeping""#)
        #expect(throws: InterchangeError(line: 3, "task f6b6c06b-5129-4964-aab2-ebef61582b67 (“call mom”): status 'sleeping' is not one Taskwarrior writes (pending, waiting, completed, deleted, recurring)")) {
            try Taskwarrior.todos(fromExport: Data(bad.utf8), timeZone: Self.berlin)
        }
        let badDate = Self.export.replacingOccurrences(of: #""due":"20261215T133000Z""#, with: #""due":"tomorrow""#)
        #expect(throws: InterchangeError(line: 3, "task f6b6c06b-5129-4964-aab2-ebef61582b67 (“call mom”): due 'tomorrow' is not a Taskwarrior date such as 20261214T230000Z")) {
            try Taskwarrior.todos(fromExport: Data(badDate.utf8), timeZone: Self.berlin)
        }
        let noUUID = Self.export.replacingOccurrences(of: #""uuid":"e971013a-bcb7-43a3-9fee-a1289156bd88","#, with: "")
        #expect(throws: InterchangeError(line: 6, "the task has no 'uuid': is this task export output?")) {
            try Taskwarrior.todos(fromExport: Data(noUUID.utf8), timeZone: Self.berlin)
        }
        #expect(throws: InterchangeError.self) {
            try Taskwarrior.todos(fromExport: Data("[{\"description\":".utf8), timeZone: Self.berlin)
        }
    }
}
