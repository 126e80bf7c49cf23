import Foundation
import Testing
import TestSupport
import TodoCore

/// `todo start` and `todo stop` through the binary: Taskwarrior's active
/// tasks, marked in the lists, weighted in `todo next`, in the JSON, taken
/// back by undo, and refused with one line for an ID that is no todo.
@Suite("todo start and stop", .threadsOfTheirOwn)
struct StartStopTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    @Test func aStartedTodoIsMarkedRankedCarriedAndUndone() throws {
        let report = try todo.add(["write the report"])
        let milk = try todo.add(["buy milk", "--priority", "medium"])
        #expect(try todo.ok(["start", String(report.prefix(6))]).hasPrefix("Started "))
        #expect(try todo.ok(["start", String(report.prefix(6))]).hasPrefix("Already started "))

        let list = try todo.ok(["list"])
        #expect(list.contains("[*] \(report.prefix(4))") && list.contains("[ ] \(milk.prefix(4))"), "\(list)")
        let start = try #require(try todo.listJSON().first { $0["id"] as? String == report }?["start"] as? String)
        #expect(start.hasSuffix(".000Z"), "to the second: \(start)")
        #expect(try todo.ok(["show", String(report.prefix(8))]).contains("Status     started "))
        // Active 4.0 beats priority medium's 3.9.
        #expect(try todo.ok(["next"]).split(separator: "\n").first?.contains("write the report") == true)
        #expect(try todo.ok(["next", "--why", String(report.prefix(8))]).contains("active"))

        #expect(try todo.ok(["stop", String(report.prefix(6)), "--dry-run"]).contains("start: \(start) → none"))
        #expect(try todo.ok(["stop", String(report.prefix(6))]).hasPrefix("Stopped "))
        #expect(try todo.listJSON().first { $0["id"] as? String == report }?["start"] is NSNull)
        _ = try todo.ok(["undo"])
        #expect(try todo.listJSON().first { $0["id"] as? String == report }?["start"] as? String == start)

        // A done todo is not started; an unknown ID changes nothing and says so.
        _ = try todo.ok(["done", String(milk.prefix(8))])
        #expect(try todo.ok(["start", String(milk.prefix(8))]).hasPrefix("Done, left as it is "))
        let unknown = try todo.run(["start", "ffffffff", String(report.prefix(8))])
        #expect(unknown.status != 0 && unknown.stderr.split(separator: "\n").count == 1, "\(unknown.stderr)")
        #expect(try todo.ok(["stop", String(report.prefix(8))]).hasPrefix("Stopped "))
    }

    @Test func aTaskwarriorExportsStartedTaskStaysStarted() throws {
        let export = """
            [{"description":"fix the sink","entry":"20261123T195611Z","status":"pending","uuid":"e971013a-bcb7-43a3-9fee-a1289156bd88","start":"20261124T081500Z"}]
            """
        _ = try todo.ok(["import", "--from", "taskwarrior", "-"], stdin: export)
        #expect(try todo.listJSON().first?["start"] as? String == "2026-11-24T08:15:00.000Z")
        #expect(try todo.ok(["list"]).contains("[*] e971"))
    }

    /// `start:` is a Taskwarrior word as the other dates are, from the field table.
    @Test func startIsATaskwarriorWordAsTheOtherDatesAre() throws {
        let id = try todo.add(["fix the sink", "start:2026-11-24"])
        let item = try #require(try todo.listJSON().first { $0["id"] as? String == id })
        #expect(item["start"] as? String == "2026-11-24" && item["text"] as? String == "fix the sink")
        _ = try todo.ok(["edit", String(id.prefix(8)), "start:"])
        #expect(try todo.listJSON().first { $0["id"] as? String == id }?["start"] is NSNull)
    }

    /// `start:now`, as Taskwarrior writes it; a bad date names the word once.
    @Test func startNowStartsItNowAndABadStartIsNamed() throws {
        let before = Date().addingTimeInterval(-1)
        let id = try todo.add(["call the plumber", "start:now"])
        let item = try #require(try todo.listJSON().first { $0["id"] as? String == id })
        let start = try #require((item["start"] as? String).flatMap { ISO8601.date(from: $0) })
        #expect(start >= before.wholeSecond && start <= Date())
        let refused = try todo.run(["add", "x", "start:whenever"])
        #expect(refused.status != 0 && refused.stderr.contains("is not a date for start: use today"), "\(refused.stderr)")
    }
}
