import Foundation
import Testing
import TodoCore
import TodoStorage
import TestSupport

/// Import and export against the real tools: Debian's `taskwarrior` (`task`)
/// and `todotxt-cli` (`todo-txt`), which `.ci/run` installs. A test skips,
/// saying so, only where its tool is absent.
@Suite("Import from and export to Taskwarrior and todo.txt", .threadsOfTheirOwn, .serialized)
struct InterchangeToolTests {
    let todo: TodoProcess
    /// Dates typed to the tools are read in this zone, by them and by todo.
    static let zone = "Europe/Berlin"

    init() throws {
        todo = try TodoProcess()
    }

    /// Where `name` is installed, if it is.
    static func tool(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Runs a tool with `environment` added; returns its standard output, requiring success.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.tool(tool)))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = privatePipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TodoProcess.Failure("\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Every todo in the test's database, by text.
    func contents() throws -> [TodoItem] {
        let db = try AppDatabase.open(path: todo.databasePath)
        defer { try? db.close() }
        return try db.fetchListed(TodoRequest(status: .all)).map(\.item).sorted { $0.text < $1.text }
    }

    func runTodo(_ arguments: [String]) throws -> TodoProcess.Result {
        try todo.run(arguments, environment: ["TZ": Self.zone])
    }

    static func day(_ text: String) -> CalendarDay { CalendarDay(parsing: text)! }

    static var today: CalendarDay { CalendarDay(Date(), in: TimeZone(identifier: zone)!) }

    // MARK: - Taskwarrior

    /// Runs the real `task` on this test's own data and settings, with `settings` added.
    func taskwarrior(_ settings: [String] = []) throws -> ([String]) throws -> String {
        let data = todo.directory.appendingPathComponent("taskdata")
        let rc = todo.directory.appendingPathComponent("taskrc")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data().write(to: rc)
        let environment = ["TASKDATA": data.path, "TASKRC": rc.path, "TZ": Self.zone]
        return { arguments in
            try Self.run("task", ["rc.confirmation=off", "rc.verbose=nothing", "rc.gc=off", "rc.hooks=off"] + settings + arguments,
                environment: environment)
        }
    }

    @Test(.enabled(if: tool("task") != nil, "taskwarrior is not installed (apt-get install taskwarrior)"))
    func aTaskwarriorExportImportsWithEveryFieldAndOnlyOnce() throws {
        let run = try taskwarrior()
        @discardableResult
        func task(_ arguments: [String]) throws -> String { try run(arguments) }
        try task(["add", "pay rent", "due:2026-12-15", "priority:H", "project:home.garden", "+bills", "+urgent"])
        try task(["add", "call mom", "due:2026-12-15T14:30", "priority:L"])
        try task(["add", "old thing", "priority:M"])
        try task(["add", "to delete"])
        try task(["add", "water plants", "due:2026-12-01", "recur:weekly"])
        try task(["1", "annotate", "IBAN in mail"])
        try task(["1", "annotate", "second note"])
        try task(["3", "done"])
        try task(["4", "delete"])
        // A report makes the recurring task's first instance.
        _ = try? task(["list"])
        let export = todo.directory.appendingPathComponent("export.json")
        try task(["export"]).write(to: export, atomically: true, encoding: .utf8)
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: export)) as? [[String: Any]])
        let uuids = Dictionary(tasks.map { ($0["description"] as! String + "/" + ($0["status"] as! String), $0["uuid"] as! String) }) { first, _ in first }

        let first = try runTodo(["import", "--from", "taskwarrior", export.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "Imported 4 new todos, updated 0, kept 0 unchanged\n")
        let items = try contents()
        #expect(items.map(\.text) == ["call mom", "old thing", "pay rent", "water plants"])
        let (mom, old, rent, plants) = (items[0], items[1], items[2], items[3])

        #expect(rent.idString == uuids["pay rent/pending"])
        #expect(rent.due == .day(Self.day("2026-12-15")))
        #expect(rent.priority == .high)
        #expect(rent.tags == ["bills", "urgent"])
        #expect(rent.project == "home.garden")
        #expect(rent.note == "\(Self.today) IBAN in mail\n\(Self.today) second note")
        #expect(!rent.isDone)

        #expect(mom.due == .moment(Self.day("2026-12-15").start(in: TimeZone(identifier: Self.zone)!) + 14.5 * 3600))
        #expect(mom.priority == .low)

        #expect(old.isDone && old.completedAt != nil && old.priority == .medium)
        #expect(old.idString == uuids["old thing/completed"])

        // The instance, not the template, with the template's repeat.
        #expect(plants.idString == uuids["water plants/pending"])
        #expect(plants.recurrence == TodoRepeat(parsing: "weekly"))
        #expect(plants.due == .day(Self.day("2026-12-01")))

        // Again: the same uuids, nothing changes.
        let again = try runTodo(["import", "--from", "taskwarrior", export.path])
        #expect(again.stdout == "Imported 0 new todos, updated 0, kept 4 unchanged\n")
        #expect(try contents() == items)

        // Undo takes the whole first import back (the second changed nothing).
        #expect(try runTodo(["undo"]).stdout == "Undid the import of 4 todos.\n")
        #expect(try contents().isEmpty)
    }

    /// Taskwarrior makes a pending instance of a daily task for every day
    /// since its due date, and some ahead: they are one series, one
    /// repeating todo here, and completing it brings exactly one next.
    @Test(.enabled(if: tool("task") != nil, "taskwarrior is not installed (apt-get install taskwarrior)"))
    func aRecurringTaskwarriorSeriesBecomesOneRepeatingTodo() throws {
        let run = try taskwarrior(["rc.recurrence.limit=2"])
        @discardableResult
        func task(_ arguments: [String]) throws -> String { try run(arguments) }
        try task(["add", "water plants", "due:today-3d", "recur:daily"])
        _ = try? task(["list"])
        let export = todo.directory.appendingPathComponent("export.json")
        try task(["export"]).write(to: export, atomically: true, encoding: .utf8)
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: export)) as? [[String: Any]])
        let pending = tasks.filter { $0["status"] as? String == "pending" }
        #expect(pending.count >= 3, "taskwarrior made \(pending.count) instances")

        let first = try runTodo(["import", "--from", "taskwarrior", export.path])
        #expect(first.status == 0, "\(first.stderr)")
        let items = try contents()
        #expect(items.count == 1)
        let plants = try #require(items.first)
        #expect(plants.due == .day(Self.today.adding(days: -3)) && plants.recurrence == TodoRepeat(parsing: "daily"))

        #expect(try runTodo(["done", String(plants.idString.prefix(8))]).status == 0)
        let after = try contents()
        #expect(after.filter { !$0.isDone }.count == 1, "\(after.map(\.text))")
        // Again: nothing new, nothing changed back.
        let again = try runTodo(["import", "--from", "taskwarrior", export.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try contents().filter { !$0.isDone }.count == 1)
    }

    @Test func aBadTaskwarriorFileNamesItsLineAndWritesNothing() throws {
        let file = todo.directory.appendingPathComponent("bad.json")
        try """
            [
            {"description":"fine","entry":"20261123T195611Z","status":"pending","uuid":"cc25735c-9a6d-47b4-a0a7-8289d666cc91"},
            {"description":"bad","entry":"yesterday","status":"pending","uuid":"f6b6c06b-5129-4964-aab2-ebef61582b67"}
            ]
            """.write(to: file, atomically: true, encoding: .utf8)
        let result = try runTodo(["import", "--from", "taskwarrior", file.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("\(file.path):3: task f6b6c06b-5129-4964-aab2-ebef61582b67 (“bad”): entry 'yesterday' is not a Taskwarrior date"))
        #expect(result.stderr.contains("nothing was imported"))
        #expect(try contents().isEmpty)
    }

    // MARK: - todo.txt

    /// A todo.txt folder and the configuration `todo-txt` reads it through.
    func todoTxtFolder(_ name: String) throws -> (folder: URL, environment: [String: String]) {
        let folder = todo.directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("config")
        try """
            export TODO_DIR="\(folder.path)"
            export TODO_FILE="$TODO_DIR/todo.txt"
            export DONE_FILE="$TODO_DIR/done.txt"
            export REPORT_FILE="$TODO_DIR/report.txt"
            """.write(to: config, atomically: true, encoding: .utf8)
        return (folder, ["TODOTXT_CFG_FILE": config.path, "TZ": Self.zone])
    }

    @Test(.enabled(if: tool("todo-txt") != nil, "todo.txt-cli is not installed (apt-get install todotxt-cli)"))
    func aTodoTxtFileImportsOnceAndExportsBackForTodoTxt() throws {
        let (folder, environment) = try todoTxtFolder("todotxt")
        @discardableResult
        func todoTxt(_ arguments: [String]) throws -> String {
            try Self.run("todo-txt", ["-f", "-p"] + arguments, environment: environment)
        }
        try todoTxt(["-t", "add", "(A) pay rent +home @bank due:2026-12-15"])
        try todoTxt(["-t", "add", "call mom +family t:2026-12-01"])
        try todoTxt(["add", "plain one"])
        try todoTxt(["pri", "2", "B"])
        // -a: done stays in todo.txt instead of moving to done.txt.
        try todoTxt(["-a", "do", "3"])
        let file = folder.appendingPathComponent("todo.txt").path

        let first = try runTodo(["import", "--from", "todotxt", file])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "Imported 3 new todos, updated 0, kept 0 unchanged\n")
        let items = try contents()
        #expect(items.map(\.text) == ["call mom t:2026-12-01", "pay rent", "plain one"])
        let (mom, rent, plain) = (items[0], items[1], items[2])
        #expect(rent.priority == .high && rent.tags == ["@bank", "home"] && rent.due == .day(Self.day("2026-12-15")))
        #expect(rent.createdAt == Self.today.start(in: TimeZone(identifier: Self.zone)!))
        #expect(mom.priority == .medium && mom.tags == ["family"] && mom.due == nil)
        #expect(plain.isDone && plain.completedAt == Self.today.start(in: TimeZone(identifier: Self.zone)!))

        let again = try runTodo(["import", "--from", "todotxt", file])
        #expect(again.stdout == "Imported 0 new todos, updated 0, kept 3 unchanged\n")
        #expect(try contents() == items)

        // Exported, todo-txt reads it: its priorities, projects and contexts.
        let (outFolder, outEnvironment) = try todoTxtFolder("exported")
        let exported = try runTodo(["export", "--to", "todotxt"]).stdout
        try exported.write(to: outFolder.appendingPathComponent("todo.txt"), atomically: true, encoding: .utf8)
        let listed = try Self.run("todo-txt", ["-p", "listall"], environment: outEnvironment)
        #expect(listed.contains("(A) \(Self.today) pay rent +home @bank due:2026-12-15"))
        #expect(listed.contains("(B) \(Self.today) call mom t:2026-12-01 +family"))
        #expect(listed.contains("x \(Self.today) \(Self.today) plain one"))
        #expect(try Self.run("todo-txt", ["-p", "listproj"], environment: outEnvironment).split(separator: "\n") == ["+family", "+home"])
        #expect(try Self.run("todo-txt", ["-p", "listcon"], environment: outEnvironment).split(separator: "\n") == ["@bank"])

        // And that file, imported into another database, gives the same todos (their ids aside).
        let other = try TodoProcess()
        let reimport = try other.run(["import", "--from", "todotxt", "-"], stdin: exported, environment: ["TZ": Self.zone])
        #expect(reimport.status == 0, "\(reimport.stderr)")
        let db = try AppDatabase.open(path: other.databasePath)
        defer { try? db.close() }
        let back = try db.fetchListed(TodoRequest(status: .all)).map(\.item).sorted { $0.text < $1.text }
        #expect(back.map(\.text) == items.map(\.text))
        #expect(back.map(\.priority) == items.map(\.priority))
        #expect(back.map(\.tags) == items.map(\.tags))
        #expect(back.map(\.due) == items.map(\.due))
        #expect(back.map(\.isDone) == items.map(\.isDone))
        // todo.txt keeps the day a todo was created, not the time.
        let zone = TimeZone(identifier: Self.zone)!
        #expect(back.map { CalendarDay($0.createdAt, in: zone) } == items.map { CalendarDay($0.createdAt, in: zone) })
    }

    @Test func aBadTodoTxtLineIsNamedAndNothingIsWritten() throws {
        _ = try runTodo(["add", "already here"])
        let result = try todo.run(["import", "--from", "todotxt", "-"], stdin: "fine\n(A) call due:friday\n", environment: ["TZ": Self.zone])
        #expect(result.status != 0)
        #expect(result.stderr.contains("<stdin>:2: 'due:friday' is not a due date: todo.txt writes it as due:YYYY-MM-DD"))
        #expect(try contents().map(\.text) == ["already here"])
    }
}
