import Foundation
import PropertyBased
import Testing
import TodoCore
@testable import TodoSync

/// A first sync scans the list by hand; wherever the scanner answers, it must
/// read exactly what the general reader (`JSONValue`, then `RemoteTodo(json:)`)
/// reads, and refuse what it refuses.
@Suite("The list scanner reads as the decoder does")
struct ListScannerTests {
    static let names = [FieldNames(), FieldNames(title: "text", completed: "done", marker: "uuid")]

    /// What the general reader reads from the body; nil if it refuses it.
    static func decoded(_ body: [UInt8], names: FieldNames) -> [RemoteTodo?]? {
        guard case let .array(elements)? = try? JSONValue.parse(body) else { return nil }
        return elements.map { RemoteTodo(json: $0, names: names) }
    }

    static let keys = [
        #""id""#, #""title""#, #""completed""#, #""clientId""#, #""updatedAt""#, #""version""#, #""text""#, #""done""#,
        #""uuid""#, #""other""#, #""""#, #""ti tle""#, #""createdAt""#, #""completedAt""#, #""textEditedAt""#,
        #""doneEditedAt""#,
    ]
    /// Keys it leaves to the decoder: one may equal a field's name once unescaped or normalized.
    static let oddKeys = [#""t\u0069tle""#, #""ïd""#]

    /// Values the scanner reads, of every type a field may hold.
    static let values = [
        #""a1""#, #""""#, "7", "-3", "0", "-0", "9223372036854775807", "-9223372036854775808",
        "true", "false", "null", #""buy milk""#, #""Crème brûlée""#, #""  two\nlines\u2028here  ""#,
        #""\u00e9\"\\\/\b\f\r\t""#, #""\u0000""#, #""3F2A1B2C-6F0E-4C1A-9D0B-2F1E3C4D5A6B""#,
        #""3f2a1b2c-6f0e-4c1a-9d0b-2f1e3c4d5a6b""#, #""2026-11-21T09:30:00.000Z""#, #""2026-11-21T09:30:00Z""#,
        #""TRUE""#, #""yes""#, #""é""#, "[]", #"[1, "a", {"b": [null, -2.5e-3]}]"#, "{}", #"{"id": 1}"#,
    ]

    /// Values it leaves to the decoder (valid or not), used more rarely.
    static let oddValues = [
        "01", "1.5", "2.5e3", "1e3", "1E+2", "-", "1.", ".5", "9223372036854775808", "-9223372036854775809",
        "tru", "nul", #""\ud83d\ude00""#, #""\ud83d""#, #""\x""#, "\"raw\ttab\"", #"{"a" 1}"#, "[1,]", "{,}",
        #""unterminated"#,
    ]

    static let oddElements = [#""just text""#, "17", "null", "[1, 2]", "{}", "true"]
    static let spaces = ["", " ", "\n", "\t ", "\r\n"]

    /// A body built from a list of numbers: mostly objects of random fields,
    /// sometimes other elements, odd spacing, a stray byte or invalid UTF-8.
    static func body(_ program: [Int]) -> [UInt8] {
        var elements: [String] = []
        var fields: [String] = []
        for n in program {
            switch n % 11 {
            case 0, 3, 5:
                elements.append("{" + fields.joined(separator: ",") + "}")
                fields = []
            case 1 where n % 7 == 0:
                elements.append(oddElements[n % oddElements.count])
            default:
                let value = n % 29 == 2 ? oddValues[(n / 29) % oddValues.count] : values[(n / 11) % values.count]
                let key = n % 31 == 4 ? oddKeys[n % oddKeys.count] : keys[n % keys.count]
                fields.append(key + spaces[n % spaces.count] + ":" + value)
            }
        }
        elements.append("{" + fields.joined(separator: ",") + "}")
        var bytes = Array((spaces[program.count % spaces.count] + "[" + elements.joined(separator: ",") + "]").utf8)
        if let first = program.first, first % 13 == 0, !bytes.isEmpty {
            let strays: [UInt8] = [0xFF, 0xC3, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "\""), 0x01]
            bytes.insert(strays[first % strays.count], at: (first / 13) % bytes.count)
        }
        return bytes
    }

    @Test func randomListsAreReadAsTheDecoderReadsThem() async {
        let programs = Gen.int(in: 0...100_000).array(of: 0...40)
        await propertyCheck(count: 2_000, input: programs) { program in
            let body = Self.body(program)
            for names in Self.names {
                guard let scanned = RemoteListScanner.items(in: body, names: names) else { continue }
                #expect(scanned == Self.decoded(body, names: names), "\(String(decoding: body, as: UTF8.self))")
            }
        }
    }

    @Test func theScannerAnswersManyRandomLists() {
        // Not a timing check: without it the property above could hold by the scanner never answering.
        var random: UInt64 = 11
        func next() -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(random >> 33)
        }
        var answered = 0
        for _ in 0..<500 {
            let program = (0..<(next() % 30)).map { _ in next() % 100_000 }
            let body = Self.body(program)
            if let scanned = RemoteListScanner.items(in: body, names: FieldNames()) {
                answered += 1
                #expect(scanned == Self.decoded(body, names: FieldNames()), "\(String(decoding: body, as: UTF8.self))")
            }
        }
        #expect(answered > 100, "answered \(answered) of 500")
    }

    @Test(arguments: names)
    func theItemsOfTheReadingTestsAreReadAlikeWhereverTheScannerAnswers(names: FieldNames) throws {
        var answered = 0
        for item in RemoteReadingTests.items {
            for body in ["[\(item)]", "[\(item), \(item)]", #"[{"id": "first"}, \#(item)]"#] {
                let bytes = Array(body.utf8)
                guard let scanned = RemoteListScanner.items(in: bytes, names: names) else { continue }
                answered += 1
                #expect(scanned == Self.decoded(bytes, names: names), "\(body)")
            }
        }
        #expect(answered > RemoteReadingTests.items.count)
    }

    @Test func aTodoServerListIsScanned() throws {
        let body = """
            [{"id": "1a3d1fa7-bc89-40a9-a3b8-c1e9392456de", "title": "Buy tax", "completed": true, "version": 1, "updatedAt": "2024-01-01T00:00:00.000Z"},
             {"id": "8fadc1a6-06cb-4fb3-9a1d-e644815ef6d1", "title": "plan br\\u00fbl\\u00e9e \\"now\\"", "completed": false, "version": 12, "updatedAt": "2024-01-01T00:00:30.000Z"},
             {"id": 42, "title": "Crème", "completed": 1, "clientId": "3f2a1b2c-6f0e-4c1a-9d0b-2f1e3c4d5a6b", "tags": ["a", {"b": null}], "n": -1.5e3}]
            """
        let scanned = try #require(RemoteListScanner.items(in: Array(body.utf8), names: FieldNames()))
        #expect(scanned == Self.decoded(Array(body.utf8), names: FieldNames()))
        #expect(scanned.map { $0?.fields.text } == ["Buy tax", #"plan brûlée "now""#, "Crème"])
        #expect(scanned[2]?.id == "42" && scanned[2]?.fields.isDone == true && scanned[2]?.todoId?.lowercasedString == "3f2a1b2c-6f0e-4c1a-9d0b-2f1e3c4d5a6b")
        #expect(scanned[1]?.version == 12 && scanned[0]?.updatedAt == ISO8601.date(from: "2024-01-01T00:00:00.000Z"))
        #expect(RemoteListScanner.items(in: Array("[]".utf8), names: FieldNames()) == [])
    }

    @Test func whatTheScannerLeavesIsDecoded() {
        // Each is valid JSON the scanner does not read: the decoder still does.
        let bodies = [#"[{"id": "a", "title": 2.5}]"#, #"[{"id": "a", "id": "b"}]"#, #"[{"\u0069d": "a"}]"#, #"["text"]"#, #"{"items": []}"#]
        for body in bodies {
            #expect(RemoteListScanner.items(in: Array(body.utf8), names: FieldNames()) == nil, "\(body)")
        }
    }
}
