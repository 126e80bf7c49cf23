import Foundation
import Testing
import TestSupport

/// `todo next` through the binary: the ranking, --why, --json, the weights
/// read from config.toml, and a config that cannot be used refused in one line.
@Suite("todo next", .threadsOfTheirOwn)
struct NextCommandTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    var configFile: URL { todo.directory.appendingPathComponent("config/todo/config.toml") }

    func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(at: configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: configFile, atomically: true, encoding: .utf8)
    }

    func ranked(_ arguments: [String] = []) throws -> [String] {
        let data = Data(try todo.ok(["next", "--json"] + arguments).utf8)
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    }

    @Test func theMostUrgentComeFirstAndWaitingOnesNotAtAll() throws {
        _ = try todo.ok(["add", "read a book"])
        _ = try todo.ok(["add", "pay rent", "--due", "tomorrow", "--priority", "high"])
        _ = try todo.ok(["add", "fix the sink", "--tag", "next"])
        _ = try todo.ok(["add", "call back", "--priority", "low", "--project", "work"])
        _ = try todo.ok(["add", "report", "--priority", "high", "--wait", "in 3 days"])
        let done = try JSONSerialization.jsonObject(with: Data(try todo.ok(["add", "old", "--priority", "high", "--json"]).utf8)) as? [String: Any]
        _ = try todo.ok(["done", try #require(done?["id"] as? String)])

        #expect(try ranked() == ["fix the sink", "pay rent", "call back", "read a book"])
        #expect(try ranked(["--limit", "2"]) == ["fix the sink", "pay rent"])
        #expect(try ranked(["--project", "work"]) == ["call back"])
        let text = try todo.ok(["next"])
        #expect(text.split(separator: "\n").first?.contains("fix the sink  #next") == true, "\(text)")
        #expect(text.hasPrefix(" 15.8  "), "\(text)")

        let rent = try #require(try todo.listJSON(["--query", "rent"]).first?["id"] as? String)
        let why = try todo.ok(["next", "--why", String(rent.prefix(8))])
        #expect(why.contains("priority high") && why.contains("due in") && why.contains("urgency"), "\(why)")
        let report = try #require(try todo.listJSON(["--waiting"]).first?["id"] as? String)
        #expect(try todo.ok(["next", "--why", report]).contains("todo next leaves it out: it is waiting until "))
    }

    @Test func weightsComeFromConfigToml() throws {
        _ = try todo.ok(["add", "pay rent", "--due", "tomorrow"])
        _ = try todo.ok(["add", "fix the sink", "--tag", "next"])
        #expect(try ranked() == ["fix the sink", "pay rent"])
        try writeConfig("# mine\n[urgency]\nnext_tag = 0\ndue = 20\nage_limit_days = 30\n")
        #expect(try ranked() == ["pay rent", "fix the sink"])
    }

    @Test(arguments: [
        ("[urgency\n", "line 1"),
        ("[urgency]\nnxt = 1\n", "urgency.nxt is no weight: the weights are next_tag, due"),
        ("[urgency]\ndue = \"high\"\n", "urgency.due must be a number"),
        ("[urgency]\nage_limit_days = 0\n", "urgency.age_limit_days must be a whole number"),
        ("[urgency]\nage = 5000\n", "urgency.age must be a number between -1000 and 1000"),
        ("colour = true\n", "has no setting 'colour'"),
    ])
    func aConfigThatCannotBeUsedIsOneLine(config: String, message: String) throws {
        try writeConfig(config)
        let result = try todo.run(["next"])
        #expect(result.status != 0)
        #expect(result.stderr.contains(message) && result.stderr.contains("config.toml"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
}
