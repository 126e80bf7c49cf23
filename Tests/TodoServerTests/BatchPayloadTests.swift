import Foundation
import PropertyBased
import Testing
@testable import TodoServer

/// A batch's payloads are read once, with the batch (`TodoPayload(partOf:)`):
/// each must be exactly the payload, or the error, of its text sent alone.
struct BatchPayloadTests {
    static let pieces = [
        #""title": "milk""#, #""title": 5"#, #""title": "a\"b""#, #""completed": true"#, #""completed": "yes""#,
        #""id": "a""#, #""id": 7"#, #""id": -0"#, #""id": 1.5"#, #""id": 1e3"#, #""id": 99999999999999999999"#,
        #""id": """#, #""id": "\u0000""#, #""id": "\u00e9""#, #""id": null"#, #""id": [1]"#, #""i\u0064": "x""#,
        #""note": {"a": [1, 2]}"#, #""n": 1.50"#, #""version": 3"#, #""tags": ["x", "y"]"#, #""title": "é😀""#,
    ]

    @Test func aPayloadReadWithItsBatchIsThePayloadReadAlone() async {
        let members = Gen.int(in: 0...(Self.pieces.count - 1)).map { Self.pieces[$0] }.array(of: 0...5)
        await propertyCheck(count: 1_000, input: members, Gen.bool) { members, spaced in
            let payload = "{" + members.joined(separator: spaced ? " ,\n " : ",") + "}"
            let batch = #"{"operations": [{"method": "POST", "body": \#(payload)}]}"#
            // Only batches the strict reader accepts (no name twice) are read further.
            guard (try? StrictJSONReader.read(Array(batch.utf8))) != nil else { return }
            let alone = Result { () throws(ServerError) in try TodoPayload(json: payload) }
            let inBatch = Result { () throws(ServerError) in try BatchOperation.operations(from: Array(batch.utf8), limit: 10) }
            switch (alone, inBatch) {
            case let (.success(expected), .success(operations)):
                #expect(operations.first?.payload == expected, "\(payload)")
            case let (.failure(expected), .failure(error)):
                #expect(error.message == "Operation 1 of the batch: " + expected.message, "\(payload)")
            default:
                Issue.record("\(payload): alone \(alone), in a batch \(inBatch)")
            }
        }
    }
}
