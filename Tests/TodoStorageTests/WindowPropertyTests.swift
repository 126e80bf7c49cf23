import Foundation
import PropertyBased
import Testing
import TodoCore
import TodoStorage

/// `todo ui` loads windows of the list by keyset, with a bounded walk before
/// the trigram index; these properties pin that any window is exactly the
/// slice of the full list (`todo list`, and so `selectFilteredTodos`) around
/// its anchor, whichever way the search went.
@Suite("Windows of the list equal slices of the full list")
struct WindowPropertyTests {
    static let words = ["milk", "Bank", "crème", "MILKY", "quokka", "日本", "é", "a", "ba"]
    static let text = Gen.int(in: 0...(words.count - 1)).array(of: 1...3).map { $0.map { words[$0] }.joined(separator: " ") }
    static let query = Gen.int(in: 0...(words.count + 1)).map { $0 < words.count ? String(words[$0].prefix(4)) : ["", "x"][$0 - words.count] }

    @Test func everyWindowIsASliceOfTheList() async throws {
        await propertyCheck(
            count: 300,
            input: Self.text.array(of: 1...25), Self.query, Gen.int(in: 0...4), Gen.int(in: 0...4), Gen.int(in: 0...100)
        ) { texts, query, newer, older, pick in
            let db = try AppDatabase.inMemory()
            for (index, text) in texts.enumerated() {
                // Pairs of todos share a creation time, as a sync's pulls do.
                // Some still waiting, some past their until date: the view leaves them out.
                try db.insertTodo(TodoItem(
                    id: UUID(), text: text, isDone: index % 3 == 1,
                    createdAt: Date(millisecondsSince1970: Int64(index / 2)),
                    wait: index % 5 == 2 ? .day(CalendarDay(year: 2030, month: 1, day: 1)!) : nil,
                    until: index % 7 == 3 ? .day(CalendarDay(year: 2020, month: 1, day: 1)!) : nil
                ))
            }
            let now = Date(timeIntervalSince1970: 1_795_000_000)
            for status in TodoRequest.Status.allCases {
                let request = TodoRequest(
                    status: status, query: query, schedule: pick % 2 == 0 ? .any : .current(at: now, in: TimeZone(identifier: "UTC")!)
                )
                let listed = try db.fetchListed(request).map(\.item)
                let all = try db.listWindow(request, around: .top, newer: 0, older: 1000).rows
                #expect(all.map(\.item) == listed)
                #expect(all.map(\.position) == all.map(\.position).sorted())
                for walkLimit in [1, 3, AppDatabase.searchWalkLimit] {
                    // A quick load is the complete one, or part of it marked so.
                    for anchor in [TodoWindow.Anchor.top, .bottom] + (all.isEmpty ? [] : [.position(all[pick % all.count].position)]) {
                        let complete = try db.listWindow(request, around: anchor, newer: newer, older: older, walkLimit: walkLimit)
                        let quick = try db.listWindow(
                            request, around: anchor, newer: newer, older: older, effort: .quick, walkLimit: walkLimit
                        )
                        if quick.isComplete {
                            #expect(quick == complete)
                        } else {
                            #expect(complete.rows.contains(quick.rows), "\(status) \(query.debugDescription) \(anchor)")
                            if anchor == .top { #expect(complete.rows.starts(with: quick.rows)) }
                            #expect(TodoItem.searchKey(query).unicodeScalars.count < 3)
                        }
                    }
                    let top = try db.listWindow(request, around: .top, newer: newer, older: older, walkLimit: walkLimit)
                    #expect(top == TodoWindow(rows: Array(all.prefix(older)), hasNewer: false, hasOlder: all.count > older))
                    let bottom = try db.listWindow(request, around: .bottom, newer: newer, older: older, walkLimit: walkLimit)
                    #expect(bottom == TodoWindow(
                        rows: Array(all.suffix(newer)), hasNewer: all.count > newer, hasOlder: false
                    ))
                    guard !all.isEmpty else { continue }
                    let anchor = pick % all.count
                    let around = try db.listWindow(
                        request, around: .position(all[anchor].position), newer: newer, older: older, walkLimit: walkLimit
                    )
                    let start = max(0, anchor - newer)
                    let end = min(all.count, anchor + older)
                    #expect(around == TodoWindow(
                        rows: Array(all[start..<end]), hasNewer: start > 0, hasOlder: end < all.count
                    ), "\(status) \(query.debugDescription) around \(anchor) in \(texts)")
                }
            }
        }
    }

    @Test func aQuickLoadOfARareShortQueryStopsAtTheWalkAndSaysSo() throws {
        let db = try AppDatabase.inMemory()
        for index in 0..<50 {
            try db.insertTodo(TodoItem(
                id: UUID(), text: index == 0 ? "jo the oldest" : "todo \(index)",
                isDone: index % 2 == 1, createdAt: Date(millisecondsSince1970: Int64(index))
            ))
        }
        for status in TodoRequest.Status.allCases {
            let request = TodoRequest(status: status, query: "jo")
            let quick = try db.listWindow(request, around: .top, newer: 0, older: 5, effort: .quick, walkLimit: 10)
            #expect(quick == TodoWindow(rows: [], hasNewer: false, hasOlder: false, isComplete: false))
            let complete = try db.listWindow(request, around: .top, newer: 0, older: 5, walkLimit: 10)
            #expect(complete.rows.map(\.item.text) == (status == .done ? [] : ["jo the oldest"]))
            #expect(complete.isComplete)
            // A key of three or more letters goes to the trigram index instead.
            let indexed = try db.listWindow(
                TodoRequest(status: status, query: "jo "), around: .top, newer: 0, older: 5, effort: .quick, walkLimit: 10
            )
            #expect(indexed == complete)
        }
    }

    @Test func likePatternsEscapeTheirWildcards() throws {
        let db = try AppDatabase.inMemory()
        for text in ["100% sure", "1000 sure", "a_b", "axb", #"back\slash"#, "backslash"] {
            try db.insertTodo(TodoItem(id: UUID(), text: text, createdAt: Date()))
        }
        for (query, expected) in [("0%", ["100% sure"]), ("a_", ["a_b"]), (#"\s"#, [#"back\slash"#])] {
            #expect(try db.fetchListed(TodoRequest(query: query)).map(\.item.text) == expected)
            #expect(try db.listWindow(TodoRequest(query: query), around: .top, newer: 0, older: 9).rows.map(\.item.text) == expected)
        }
    }

    @Test func aWindowAroundADeletedTodoStartsWhereItWas() throws {
        let db = try AppDatabase.inMemory()
        let items = (0..<5).map { TodoItem(id: UUID(), text: "todo \($0)", createdAt: Date(millisecondsSince1970: Int64($0))) }
        for item in items { try db.insertTodo(item) }
        let all = try db.listWindow(TodoRequest(), around: .top, newer: 0, older: 10).rows
        try db.deleteTodos(ids: [all[2].id])
        let around = try db.listWindow(TodoRequest(), around: .position(all[2].position), newer: 1, older: 1)
        #expect(around.rows.map(\.item.text) == ["todo 3", "todo 1"])
    }

    @Test func theChangeTokenMovesOnlyForAnotherConnectionsCommit() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("window-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let mine = try AppDatabase.open(path: path)
        let theirs = try AppDatabase.open(path: path)
        let start = try mine.dataVersion()
        try mine.insertTodo(TodoItem(id: UUID(), text: "mine", createdAt: Date()))
        #expect(try mine.dataVersion() == start)
        try theirs.insertTodo(TodoItem(id: UUID(), text: "theirs", createdAt: Date()))
        #expect(try mine.dataVersion() != start)
    }
}
