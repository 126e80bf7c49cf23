import Foundation
import Testing
import TodoCore
@testable import TodoSync

/// Lists are scanned straight from their bytes where possible; single items
/// and feed pages are read through `JSONValue`. All must read any item alike,
/// however odd its fields.
struct RemoteReadingTests {
    static let items: [String] = [
        #"{"id": "a1", "title": "buy milk", "completed": false}"#,
        #"{"id": 7, "title": 42, "completed": 1, "version": 3, "updatedAt": "2026-11-21T09:30:00.000Z"}"#,
        #"{"id": "x", "title": 2.5, "completed": "yes", "version": 2.5, "updatedAt": "2026-11-21T09:30:00Z"}"#,
        #"{"id": "d", "title": "dated", "createdAt": "2026-11-01T08:00:00.000Z", "completedAt": "2026-11-02T08:00:00Z", "textEditedAt": "2026-11-03T08:00:00.000Z", "doneEditedAt": 17}"#,
        #"{"id": "e", "title": "bad dates", "createdAt": "yesterday", "completedAt": null, "textEditedAt": {"a": 1}}"#,
        #"{"id": "y", "title": null, "completed": null, "version": null, "updatedAt": null}"#,
        #"{"id": "z", "title": true, "completed": "TRUE", "updatedAt": 5}"#,
        #"{"id": "w", "title": "  two\nlines\u2028here  ", "completed": 0}"#,
        #"{"id": "v", "title": "\u00a0Crème\u00a0", "completed": 1.5}"#,
        #"{"id": "u", "title": ["a"], "completed": {"b": 1}, "clientId": "3F2A1B2C-6F0E-4C1A-9D0B-2F1E3C4D5A6B"}"#,
        #"{"id": "t", "title": "", "clientId": "not a uuid"}"#,
        #"{"id": "3f2a1b2c-6f0e-4c1a-9d0b-2f1e3c4d5a6b", "title": "Straße"}"#,
        #"{"id": 1e3, "title": "a number id"}"#,
        #"{"id": "", "title": "empty id"}"#,
        #"{"title": "no id"}"#,
        #"{"id": null}"#,
        #"{"id": true}"#,
        #""just text""#,
        #"17"#,
        #"null"#,
        #"[1, 2]"#,
    ]

    @Test(arguments: [FieldNames(), FieldNames(title: "text", completed: "done", marker: "uuid")])
    func aListIsReadAsEachItemAlone(names: FieldNames) throws {
        let items = Self.items + Self.items.map {
            $0.replacingOccurrences(of: "\"title\"", with: "\"text\"").replacingOccurrences(of: "\"completed\"", with: "\"done\"")
                .replacingOccurrences(of: "\"clientId\"", with: "\"uuid\"")
        }
        let list = HTTPResponseData(status: 200, body: Array(("[" + items.joined(separator: ",") + "]").utf8))
        let read = try RemoteCollection.readPage(list, names: names, request: "GET /todos").items
        let alone = try items.map { RemoteTodo(json: try JSONValue.parse(Array($0.utf8)), names: names) }
        #expect(read == alone)
        #expect(read.compactMap { $0 }.count > 10)
    }

    @Test func aFeedPageIsReadWithItsTombstones() async throws {
        let page = #"{"items": [\#(Self.items.joined(separator: ","))], "deleted": [{"id": "b", "deleted": true}, {"id": 9}, {"x": 1}], "cursor": "5", "more": true}"#
        let body = try await Self.feed(page).fetchChanges(since: "0")
        #expect(body.items.count + body.skipped.count == Self.items.count)
        #expect(body.deleted == ["b", "9"])
        #expect(body.cursor == "5" && body.more)
        let odd = #"{"items": [], "deleted": "none", "cursor": "6", "more": "yes"}"#
        let lenient = try await Self.feed(odd).fetchChanges(since: "5")
        #expect(lenient.deleted.isEmpty && !lenient.more && lenient.cursor == "6")
    }

    /// A collection whose server answers every request with this body.
    static func feed(_ body: String) -> RemoteCollection {
        RemoteCollection(configuration: SyncConfiguration(server: "http://fake"), transport: Canned(body: Array(body.utf8)))
    }
}

/// A server that answers 200 with the same body to everything.
struct Canned: HTTPTransport {
    let body: [UInt8]

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        HTTPResponseData(status: 200, body: body)
    }
}
