import Foundation
import PropertyBased
import Testing
@testable import TodoCore
import TodoStorage

/// `todo list --query` runs inside SQLite; these properties pin that it returns
/// exactly what the pure selector returns, on text chosen to break naive SQL:
/// case pairs outside ASCII, ß/ẞ, dotted and dotless i, final sigma,
/// combining accents, and LIKE's wildcards, quotes and backslashes.
@Suite("Search in SQLite equals selectFilteredTodos")
struct SearchPropertyTests {
    static let alphabet: [Character] = [
        "a", "b", "e", "A", "E", "é", "É", "\u{301}", "ß", "ẞ", "s", "S", "İ", "i", "I", "ı",
        "Σ", "σ", "ς", "%", "_", "'", "\"", "\\", " ", "*", "[", "ﬁ", "\u{327}", "ç",
    ]
    static let character = Gen.int(in: 0...(alphabet.count - 1)).map { alphabet[$0] }
    static let text = character.string(of: 1...14)
    static let query = character.string(of: 1...6)

    @Test func queryResultsMatchTheSelector() async throws {
        await propertyCheck(count: 500, input: Self.text.array(of: 1...12), Self.query.array(of: 1...4)) { texts, queries in
            let db = try AppDatabase.inMemory()
            var items: [TodoItem] = []
            for (index, text) in texts.enumerated() {
                let item = TodoItem(
                    id: UUID(), text: text, isDone: index % 3 == 0,
                    createdAt: Date(millisecondsSince1970: Int64(index))
                )
                try db.insertTodo(item)
                items.insert(item, at: 0) // newest first, as storage lists them
            }
            // Queries that certainly hit: pieces of the texts, in other cases.
            let pieces = texts.prefix(3).map { String($0.dropFirst($0.count / 3).prefix(4)).uppercased() }
            for query in queries + pieces {
                for status in TodoRequest.Status.allCases {
                    let expected = selectFilteredTodos(items: items.filter(status.includes), query: query)
                    let actual = try db.fetchListed(TodoRequest(status: status, query: query)).map(\.item)
                    #expect(actual == expected, "query \(query.debugDescription) in \(texts.map(\.debugDescription))")
                    // The raw path `todo list` prints from confirms its candidates alike.
                    var raw: [String] = []
                    try db.forEachRawTodo(TodoRequest(status: status, query: query)) { raw.append(String(decoding: $0.id, as: UTF8.self)) }
                    #expect(raw == expected.map(\.idString), "raw path, query \(query.debugDescription)")
                }
            }
        }
    }

    /// Any ASCII character, for the fast path of `searchKey`.
    static let ascii = Gen.int(in: 0x00...0x7F).map { Character(Unicode.Scalar(UInt8($0))) }

    @Test func theASCIIFastPathGivesTheUnicodeKey() async throws {
        await propertyCheck(count: 500, input: Self.ascii.string(of: 0...20), Self.text) { plain, mixed in
            #expect(TodoItem.asciiSearchKey(plain) == TodoItem.unicodeSearchKey(plain))
            #expect(TodoItem.searchKey(plain) == TodoItem.unicodeSearchKey(plain))
            // Non-ASCII anywhere, even after ASCII, takes the Unicode path.
            let text = plain + mixed
            #expect(TodoItem.searchKey(text) == TodoItem.unicodeSearchKey(text))
            #expect(TodoItem.asciiSearchKey(text) == nil || text.unicodeScalars.allSatisfy(\.isASCII))
        }
        #expect(TodoItem.searchKey("Buy MILK @ 9:30 [x]") == "buy milk @ 9:30 [x]")
        #expect(TodoItem.latinSearchKey("ÉCOLE Straße İstanbul ǅ") == "ecole straße istanbul ǆ")
        #expect(TodoItem.searchKey("CAFE\u{301} Crème") == "cafe creme")
        #expect(TodoItem.asciiSearchKey("Crème") == nil)
    }

    /// Scalars up to U+02FF: Latin letters, spacing modifiers, and the first
    /// combining marks, which must send a text to the Unicode path.
    static let latin = Gen.int(in: 0x00...0x2FF).map { Character(Unicode.Scalar(UInt32($0))!) }

    @Test func theLatinTableGivesTheUnicodeKey() async throws {
        for value in 0..<0x250 {
            let text = String(Unicode.Scalar(UInt32(value))!)
            #expect(TodoItem.latinSearchKey(text) == TodoItem.unicodeSearchKey(text), "U+\(String(value, radix: 16))")
        }
        await propertyCheck(count: 500, input: Self.latin.string(of: 1...12), Self.text) { latin, mixed in
            for text in [latin, latin + mixed, mixed + latin + "\u{301}"] {
                #expect(TodoItem.searchKey(text) == TodoItem.unicodeSearchKey(text), "\(text.debugDescription)")
                if let key = TodoItem.latinSearchKey(text) {
                    #expect(key == TodoItem.unicodeSearchKey(text), "\(text.debugDescription)")
                }
            }
        }
    }

    /// Found by the property above: Foundation's `contains` says "eé" contains
    /// "é" followed by a second accent, and "eáé" contains "é" + two accents +
    /// "é". Search compares whole characters, so neither is a match, in the
    /// selector and in SQLite alike.
    @Test(arguments: [
        ("eé", "\u{E9}\u{301}"), ("eé", "\u{301}"), ("eáé", "\u{C9}\u{301}\u{C9}"), ("e\u{E1}\u{E9}", "e\u{301}\u{301}\u{E9}"),
    ])
    func aQueryWithAnExtraAccentIsNotInsideATextWithout(text: String, query: String) throws {
        let db = try AppDatabase.inMemory()
        let item = TodoItem(id: UUID(), text: text, createdAt: Date(millisecondsSince1970: 0))
        try db.insertTodo(item)
        #expect(selectFilteredTodos(items: [item], query: query).isEmpty)
        #expect(try db.fetchListed(TodoRequest(query: query)).isEmpty)
        var raw = 0
        try db.forEachRawTodo(TodoRequest(query: query)) { _ in raw += 1 }
        #expect(raw == 0)
        // The same accents on a letter, written either way, are found.
        guard query.unicodeScalars.first?.properties.isGraphemeExtend == false else { return }
        let written = query.uppercased().decomposedStringWithCanonicalMapping
        let accented = TodoItem(id: UUID(), text: "x" + query.precomposedStringWithCanonicalMapping + "x", createdAt: Date(millisecondsSince1970: 1))
        try db.insertTodo(accented)
        #expect(selectFilteredTodos(items: [accented], query: written) == [accented])
        #expect(try db.fetchListed(TodoRequest(query: written)).map(\.item) == [accented])
    }

    @Test func limitStopsAfterThatManyMatches() throws {
        let db = try AppDatabase.inMemory()
        for index in 0..<50 {
            let text = index.isMultiple(of: 2) ? "Crème \(index)" : "cafe\u{301} \(index)"
            try db.insertTodo(TodoItem(id: UUID(), text: text, createdAt: Date(millisecondsSince1970: Int64(index))))
        }
        // "cafe" is inside the decomposed "café" byte for byte but is not a match: the limit counts real matches.
        let matches = try db.fetchListed(TodoRequest(query: "CAFE", limit: 3))
        #expect(matches.isEmpty)
        let crème = try db.fetchListed(TodoRequest(query: "CRÈME", limit: 3)).map(\.item.text)
        #expect(crème == ["Crème 48", "Crème 46", "Crème 44"])
    }
}
