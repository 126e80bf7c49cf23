import Foundation
import TodoCore
import TodoSync

// MARK: - What a change answers

extension TodoToolCalls {
    /// The most changes an answer lists one by one unless `detail` asks for
    /// them all: a longer list is a summary, its count and first IDs.
    nonisolated static let summarizedAbove = 20

    /// A change's answer: how many todos it touched, and each one before and
    /// after (the first `listedChanges` of them, the rest counted), each as
    /// `TodoValue` writes it; over `summarizedAbove`, unless `detail`, only
    /// the first few IDs.
    func change(dryRun: Bool, summary: String, _ pairs: [(TodoItem?, TodoItem?)], detail: Bool = true) async throws -> JSONValue {
        let ids = pairs.map { (($0.0 ?? $0.1)?.idString ?? "") }
        guard detail || pairs.count <= Self.summarizedAbove else {
            return .object([
                "dry_run": .bool(dryRun),
                "summary": .string(summary + " (detail: true lists each todo before and after)"),
                "count": .integer(Int64(pairs.count)),
                "first_ids": .array(ids.prefix(5).map { .string($0) }),
                "changes": .array([]),
            ])
        }
        let absent = try await logic.absentParents(of: pairs.flatMap { [$0.0, $0.1].compactMap { $0 } })
        var answer: [String: JSONValue] = [
            "dry_run": .bool(dryRun),
            "summary": .string(summary),
            "count": .integer(Int64(pairs.count)),
            "changes": .array(zip(pairs, ids).prefix(Self.listedChanges).map { pair, id in
                .object([
                    "id": .string(id),
                    "before": pair.0.map { TodoValue.value($0, absentParents: absent) } ?? .null,
                    "after": pair.1.map { TodoValue.value($0, absentParents: absent) } ?? .null,
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
