import Foundation
import TodoCore
import TodoSync

// MARK: - What a change answers

extension TodoToolCalls {
    /// A change's answer: each todo before and after (the first
    /// `listedChanges` of them, the rest counted), each as `TodoValue` writes it.
    func change(dryRun: Bool, summary: String, _ pairs: [(TodoItem?, TodoItem?)]) async throws -> JSONValue {
        let absent = try await logic.absentParents(of: pairs.flatMap { [$0.0, $0.1].compactMap { $0 } })
        var answer: [String: JSONValue] = [
            "dry_run": .bool(dryRun),
            "summary": .string(summary),
            "changes": .array(pairs.prefix(Self.listedChanges).map { before, after in
                .object([
                    "id": .string((before ?? after)?.idString ?? ""),
                    "before": before.map { TodoValue.value($0, absentParents: absent) } ?? .null,
                    "after": after.map { TodoValue.value($0, absentParents: absent) } ?? .null,
                ])
            }),
        ]
        if pairs.count > Self.listedChanges { answer["omitted"] = .integer(Int64(pairs.count - Self.listedChanges)) }
        return .object(answer)
    }

    /// How a summary names the todos a change touched.
    static func naming(_ items: [TodoItem]) -> String {
        items.count == 1 ? "“\(items[0].text)”" : "\(items.count) todos"
    }
}
