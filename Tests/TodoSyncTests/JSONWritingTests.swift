import Foundation
import TestSupport
import Testing
@testable import TodoSync

/// Request bodies are written by hand; whatever is written must read back
/// as the same value, and the batch results scanned as `JSONValue` reads them.
struct JSONWritingTests {
    static func value(_ random: inout SeededRandom, depth: Int = 0) -> JSONValue {
        let pieces = ["a", "é", "\"", "\\", "\n", "\t", "\u{1}", "\u{1F}", "/", "日本", "👍🏽", " ", "\u{2028}", "\u{7F}"]
        switch random.next() % (depth > 3 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .integer(Int64(bitPattern: random.next()) >> Int64(random.next() % 64))
        case 3: return .number(Double(Int64(random.next() % 2_000_001) - 1_000_000) + 0.25)
        case 4: return .string((0..<Int(random.next() % 6)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
        case 5: return .array((0..<Int(random.next() % 4)).map { _ in value(&random, depth: depth + 1) })
        default:
            var object: [String: JSONValue] = [:]
            for index in 0..<Int(random.next() % 4) {
                object[pieces[Int(random.next() % UInt64(pieces.count))] + "\(index)"] = value(&random, depth: depth + 1)
            }
            return .object(object)
        }
    }

    @Test func everyWrittenValueReadsBackAsItself() throws {
        var random = SeededRandom(seed: 99)
        for _ in 0..<2_000 {
            let value = Self.value(&random)
            #expect(try JSONValue.parse(value.bytes) == value, "\(String(decoding: value.bytes, as: UTF8.self))")
        }
    }

    @Test func batchResultsAreScannedAsTheGeneralReaderReadsThem() throws {
        let bodies = [
            #"{"results":[{"status":201,"item":{"id":"a","title":"x","completed":true,"version":1,"textEditedAt":"2026-11-23T07:46:40.000Z"}},{"status":412,"error":"stale"},{"status":404}]}"#,
            #"{"results": [ ]}"#,
            #"{"results":[{"status":200,"item":{"id":7,"title":"t","tags":[1,{"a":null}]}}]}"#,
            #"{"results":[{"item":{"id":"a"},"status":200}]}"#, // left to the general reader
        ]
        for body in bodies {
            let response = HTTPResponseData(status: 200, body: Array(body.utf8))
            let read = try RemoteCollection.batchResults(response, names: FieldNames(), request: "POST /todos/_batch")
            guard case let .array(results)? = try JSONValue.parse(Array(body.utf8))["results"] else { throw CocoaError(.coderReadCorrupt) }
            #expect(read.count == results.count)
            for (scanned, general) in zip(read, results) {
                guard case let .integer(status)? = general["status"] else { throw CocoaError(.coderReadCorrupt) }
                #expect(scanned.status == Int(status))
                #expect(scanned.item == general["item"].flatMap { RemoteTodo(json: $0, names: FieldNames()) })
            }
        }
        #expect(RemoteListScanner.batchResults(in: Array(bodies[0].utf8), names: FieldNames()) != nil)
        #expect(RemoteListScanner.batchResults(in: Array(bodies[3].utf8), names: FieldNames()) == nil)
    }
}
