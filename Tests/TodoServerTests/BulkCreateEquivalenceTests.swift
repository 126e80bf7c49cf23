import Foundation
import PropertyBased
import Testing
@testable import TodoServer

/// A batch's runs of creates are stored in bulk (`createAll`): every result,
/// every stored todo and the change feed are those of storing them one at a
/// time, over random batches of creates (with string, numeric, repeated,
/// taken and deleted ids, and none), deletes and patches.
struct BulkCreateEquivalenceTests {
    @Test func bulkCreatesAnswerAndStoreExactlyAsCreatesOneAtATime() async {
        let batch = Gen.int(in: 0...Int.max).array(of: 1...14)
        await propertyCheck(count: 200, input: batch.array(of: 1...4)) { batches in
            var oneByOne = try makeRepository()
            oneByOne.bulkCreates = false
            let bulk = try makeRepository()
            for (number, codes) in batches.enumerated() {
                let operations = try codes.map(Self.operation(code:))
                let expected = try await oneByOne.batch(operations)
                let actual = try await bulk.batch(operations)
                #expect(actual == expected, "batch \(number + 1): \(codes)")
            }
            let query = TodoQuery()
            #expect(try await bulk.list(query) == oneByOne.list(query))
            #expect(try await bulk.changes(since: 0, limit: nil) == oneByOne.changes(since: 0, limit: nil))
            for key in Self.keys {
                #expect(try await bulk.get(id: key) == oneByOne.get(id: key))
            }
        }
    }

    /// The ids the operations use: `7` in a body and `"7"` are the same todo.
    static let keys = ["a", "b", "7", "ü"]

    static func operation(code: Int) throws -> BatchOperation {
        let key = keys[code % keys.count]
        let extra = (code / 16) % 3 == 0 ? #", "version": 9, "updatedAt": "x", "n": 1.50"# : ""
        switch (code / 4) % 8 {
        case 0, 1:
            return BatchOperation(method: .create, payload: try TodoPayload(json: #"{"id": "\#(key)", "title": "t\#(code % 97)"\#(extra)}"#))
        case 2:
            return BatchOperation(method: .create, payload: try TodoPayload(json: #"{"id": 7, "title": "seven"\#(extra)}"#))
        case 3, 4:
            return BatchOperation(method: .create, payload: try TodoPayload(json: #"{"title": "no id", "completed": true\#(extra)}"#))
        case 5:
            return BatchOperation(method: .delete, id: key)
        case 6:
            return BatchOperation(method: .patch, id: key, payload: try TodoPayload(json: #"{"title": "patched"}"#))
        default:
            return BatchOperation(method: .delete, id: key, ifMatch: .versions([(code / 32) % 3 + 1]))
        }
    }
}
