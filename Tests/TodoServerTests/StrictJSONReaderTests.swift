import JSONTokens
import Testing
@testable import TodoServer

/// The one reader of request bodies: RFC 8259 exactly, nothing two readers
/// could read differently, in time linear in the body.
struct StrictJSONReaderTests {
    private func read(_ text: String) throws(JSONReadError) -> StrictJSONReader.Document {
        try StrictJSONReader.read(Array(text.utf8))
    }

    private func error(_ bytes: [UInt8]) -> JSONReadError? {
        do {
            _ = try StrictJSONReader.read(bytes)
            return nil
        } catch {
            return error
        }
    }

    private func error(_ text: String) -> JSONReadError? {
        error(Array(text.utf8))
    }

    @Test func readsTheTopLevelMembersByType() throws {
        let document = try read(#" {"id":"a\u00e9\ud83d\ude00","n":-12,"big":1e300,"f":0.5,"t":true,"no":null,"o":{"x":[1,{"y":2}]},"l":[]} "#)
        #expect(document.value == .object)
        #expect(document.members["id"] == .string("aé😀"))
        #expect(document.members["n"] == .integer(-12))
        #expect(document.members["big"] == .number)
        #expect(document.members["f"] == .number)
        #expect(document.members["t"] == .bool(true))
        #expect(document.members["no"] == .null)
        #expect(document.members["o"] == .object)
        #expect(document.members["l"] == .array)
        #expect(document.members.count == 8)
    }

    @Test func integersThatDoNotFitAreNumbers() throws {
        #expect(try read(#"{"a":9223372036854775807}"#).members["a"] == .integer(.max))
        #expect(try read(#"{"a":10000000000000000000}"#).members["a"] == .number)
        #expect(error(#"{"a":9223372036854775808}"#) == .numberBeyondDouble(offset: 5))
        #expect(try read(#"{"a":1e2}"#).members["a"] == .number)
        #expect(try read(#"{"a":-0}"#).members["a"] == .integer(0))
    }

    @Test func otherTopLevelValuesHaveNoMembers() throws {
        #expect(try read("[1,2]").value == .array)
        #expect(try read(#""s""#).value == .string("s"))
        #expect(try read("42").members.isEmpty)
    }

    @Test(arguments: [
        "{", "}", "[", "{\"a\":1,}", "[1,]", "{,}", "{\"a\" 1}", "{'a':1}", "{a:1}", "01", "1.", ".5", "-", "1e", "+1", "0x10",
        "NaN", "Infinity", "tru", "nul", "\"a", "\"\\x\"", "\"\\u12\"", "\"\t\"", "{} {}", "{}x", "[1 2]", "// c\n{}", "{\"a\":1}\u{0}",
    ])
    func refusesWhatIsNotStrictJSON(_ text: String) {
        guard case .syntax = error(text) else {
            Issue.record("\(text.debugDescription) gave \(String(describing: error(text)))")
            return
        }
    }

    @Test func refusesEncodingsOtherThanUTF8() {
        #expect(error([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == .byteOrderMark)
        #expect(error([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00]) == .invalidUTF8)
        #expect(error([0x7B, 0x00, 0x7D, 0x00]) == .notUTF8Encoding)
        #expect(error([0x00, 0x7B, 0x00, 0x7D]) == .notUTF8Encoding)
        #expect(error([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D]) == .invalidUTF8)
    }

    @Test func refusesANameTwiceInAnyObjectHoweverItIsWritten() {
        #expect(error(#"{"title":"ok","title":5}"#) == .duplicateName("title"))
        #expect(error(#"{"o":{"a":1,"\u0061":2}}"#) == .duplicateName("a"))
        #expect(error(#"[{"a":1,"b":2,"a":3}]"#) == .duplicateName("a"))
        #expect(error(#"{"o":{"a":1},"p":{"a":1}}"#) == nil)
    }

    @Test func refusesEscapesInTopLevelNamesOnly() {
        #expect(error(#"{"\u0074itle":5}"#) == .escapedName(offset: 1))
        #expect(error(#"{"a\"b":1}"#) == .escapedName(offset: 1))
        #expect(error(#"{"o":{"\u0074itle":5}}"#) == nil)
    }

    @Test func refusesHalfASurrogatePair() {
        #expect(error(#"{"a":"\ud800"}"#) == .loneSurrogate(offset: 6))
        #expect(error(#"{"a":"\udc00\ud800"}"#) == .loneSurrogate(offset: 6))
        #expect(error(#"{"a":"\ud800\u0041"}"#) == .loneSurrogate(offset: 6))
        #expect(error(#"{"a":"\ud800x"}"#) == .loneSurrogate(offset: 6))
    }

    @Test func nestingIsLimitedAndRefusedAtTheFirstLevelTooDeep() {
        let limit = StrictJSONReader.maxDepth
        let deepest = "{\"a\":" + String(repeating: "[", count: limit - 1) + String(repeating: "]", count: limit - 1) + "}"
        #expect(error(deepest) == nil)
        let tooDeep = "{\"a\":" + String(repeating: "[", count: limit) + String(repeating: "]", count: limit) + "}"
        #expect(error(tooDeep) == .tooDeep(limit: limit))
        // Never closed: refused where the limit is crossed, not at the end.
        #expect(error(String(repeating: "[", count: 1_000_000)) == .tooDeep(limit: limit))
        #expect(error(String(repeating: "{\"a\":", count: 100_000)) == .tooDeep(limit: limit))
    }

    @Test func topLevelMembersAreCountedWhileReading() throws {
        #expect(try StrictJSONReader.read(Array(#"{"a":1,"b":{"c":1,"d":2}}"#.utf8), maxMembers: 2).members.count == 2)
        #expect(throws: JSONReadError.tooManyMembers(limit: 2)) {
            try StrictJSONReader.read(Array(#"{"a":1,"b":2,"c":3"#.utf8), maxMembers: 2)
        }
    }

    /// What a double holds is taken, its text unconverted; past that, refused,
    /// as PostgreSQL's `numeric` could not store it as SQLite does.
    @Test func numbersADoubleHoldsAreTakenTheRestRefused() throws {
        let taken = ["0", "-0", "-0.0e-5", "1e300", "-1E-300", "123.456e+7", "1" + String(repeating: "0", count: 300), "0.12345678901234567",
                     "12345678901234567000000", "9223372036854775807", "-9223372036854775808", "1.7976931348623157e308", "5e-324"]
        for number in taken {
            #expect(error("{\"n\":\(number)}") == nil, "\(number)")
        }
        let refused = ["1e999", "-1E-999", "2e308", "1e-400", "1" + String(repeating: "0", count: 400), "0.123456789012345678",
                       "12345678901234567890123", "9223372036854775808", "0." + String(repeating: "1", count: 100_000)]
        for number in refused {
            #expect(error("{\"n\":\(number)}") == .numberBeyondDouble(offset: 5), "\(number.prefix(30))")
        }
    }

    @Test func aNULInAStringIsRefusedWhereverItIs() throws {
        #expect(error(#"{"title":"a\u0000b"}"#) == .nulInText(offset: 9))
        #expect(error(#"{"x":{"a\u0000":1}}"#) == .nulInText(offset: 6))
        #expect(error(#"{"x":["\u0000"]}"#) == .nulInText(offset: 6))
        #expect(error(#"{"x":"\u0001\u001f"}"#) == nil)
    }
}
