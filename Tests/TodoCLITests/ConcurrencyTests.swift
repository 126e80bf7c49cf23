import Foundation
import Testing
import TestSupport

@Suite("Several todo processes at once", .threadsOfTheirOwn)
struct ConcurrencyTests {
    /// 8 processes adding 50 todos each, all at once, on one new database:
    /// no "database is locked", no lost write.
    @Test func eightProcessesAddingFiftyEachEndWithFourHundred() async throws {
        let todo = try TodoProcess()
        let failures = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<8 {
                group.addTask {
                    var failures: [String] = []
                    for n in 0..<50 {
                        let result = try todo.run(["add", "writer \(writer) todo \(n)"])
                        if result.status != 0 { failures.append(result.stderr) }
                    }
                    return failures
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        let items = try todo.listJSON(["--all"])
        #expect(items.count == 400)
        #expect(Set(items.compactMap { $0["text"] as? String }).count == 400)
    }
}
