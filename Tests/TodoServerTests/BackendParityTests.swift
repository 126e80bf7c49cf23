import Foundation
import Hummingbird
import HummingbirdTesting
import JSONTokens
import TestSupport
import Testing
import TodoServer

/// One table of requests (hand-picked edge cases, then the fuzz corpus)
/// sent in the same order to a SQLite server and a PostgreSQL server, each
/// with the same clock and ids: every answer's status and body agree (JSON
/// compared as values, numbers by value), except what Docs/server.md
/// lists under "What differs".
struct BackendParityTests {
    /// The hand-picked requests: what a backend could store differently.
    static func edgeCases() -> [FuzzRequest] {
        let json: HTTPFields = [.contentType: "application/json"]
        func post(_ body: String) -> FuzzRequest { FuzzRequest(method: .post, uri: "/todos", headers: json, body: Array(body.utf8)) }
        func patch(_ id: String, _ body: String) -> FuzzRequest { FuzzRequest(method: .patch, uri: "/todos/\(id)", headers: json, body: Array(body.utf8)) }
        return [
            post(#"{"id":"n1","title":"a fraction","x":0.\#(String(repeating: "1", count: 100_000))}"#),
            post(#"{"id":"n2","title":"a long number","x":\#(String(repeating: "9", count: 1 << 20 - 60))}"#),
            post(#"{"id":"n3","title":"nul \u0000 in a title"}"#),
            post(#"{"id":"n4","title":"nul in a value","x":{"y":"a\u0000b"}}"#),
            post(#"{"id":"n5","title":"nul in a name","x":{"a\u0000b":1}}"#),
            post(#"{"id":"n6","title":"huge exponent","x":1e999}"#),
            post(#"{"id":"n7","title":"tiny exponent","x":1e-999}"#),
            post(#"{"id":"n8","title":"seventeen digits","x":0.12345678901234567}"#),
            post(#"{"id":"n9","title":"eighteen digits","x":0.123456789012345678}"#),
            post(#"{"id":"n10","title":"big integer","x":123456789012345678901234567890}"#),
            post(#"{"id":"n11","title":"negative zero","x":-0.0,"y":1E+2,"z":100.50}"#),
            post(#"{"id":"n12","title":"max double","x":1.7976931348623157e308,"y":2e308}"#),
            post(#"{"id":"n13","title":"escapes","x":"\u00e9\ud83d\ude00\/"}"#),
            post(#"{"id":"n14","title":"\u0001 control"}"#),
            patch("n1", #"{"title":"\u0000"}"#),
            patch("n6", #"{"x":1e400}"#),
            FuzzRequest(method: .get, uri: "/todos?_since=0", headers: [:], body: nil),
        ] + randomJSON()
    }

    /// Random JSON todos: strings with every kind of escape (NUL, half a
    /// surrogate pair, controls), numbers of every length and exponent,
    /// nesting; each posted, then the list read back.
    static func randomJSON() -> [FuzzRequest] {
        var random = SeededRandom(seed: 43)
        func text() -> String {
            let pieces = ["a", "é", "\\u0000", "\\ud800", "\\ud83d\\ude00", "\\n", "\\\"", "\\\\", "\\u001f", "\u{7f}", "😀", " ", "\\u00e9"]
            return "\"" + (0..<random.int(in: 0...6)).map { _ in random.pick(pieces) }.joined() + "\""
        }
        func digits(_ range: ClosedRange<Int>) -> String {
            String((0..<random.int(in: range)).map { _ in Character(String(random.int(in: 0...9))) })
        }
        func number() -> String {
            var number = (random.chance(0.3) ? "-" : "") + (random.chance(0.3) ? "0" : String(random.int(in: 1...9)) + digits(0...25))
            if random.chance(0.5) { number += "." + String(random.int(in: 0...9)) + digits(0...25) }
            if random.chance(0.4) { number += random.pick(["e", "E"]) + random.pick(["", "+", "-"]) + String(random.int(in: 0...400)) }
            return number
        }
        func value(_ depth: Int) -> String {
            switch depth > 3 ? random.int(in: 0...3) : random.int(in: 0...5) {
            case 0: return text()
            case 1: return number()
            case 2: return random.pick(["true", "false", "null"])
            case 3: return number()
            case 4: return "[" + (0..<random.int(in: 0...3)).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
            default:
                var names = Set<String>()
                return "{" + (0..<random.int(in: 0...3)).compactMap { _ in
                    let name = text()
                    return names.insert(name).inserted ? name + ":" + value(depth + 1) : nil
                }.joined(separator: ",") + "}"
            }
        }
        let json: HTTPFields = [.contentType: "application/json"]
        return (0..<300).flatMap { index in
            let body = #"{"id":"r\#(index)","title":"# + text() + #","x":"# + value(0) + #","y":"# + value(0) + "}"
            return [FuzzRequest(method: .post, uri: "/todos", headers: json, body: Array(body.utf8))]
                + (index % 50 == 49 ? [FuzzRequest(method: .get, uri: "/todos?_since=0", headers: [:], body: nil)] : [])
        }
    }

    /// A body as a value to compare: JSON read into a canonical form (key
    /// order, spacing and a number's spelling do not count: `1e2`, `100`
    /// and `100.0` are one value, as are `-0` and `0`), else the text.
    static func comparable(_ response: TestResponse) -> String {
        // CalDAV stamps a new todo's creation with the wall clock, not the test's.
        let text = String(buffer: response.body)
            .replacing(/20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d\d\dZ/) { $0.output == "2026-11-21T09:30:00.000Z" ? $0.output : "<now>" }
            .replacing(/20\d{6}T\d{6}Z/) { $0.output == "20261121T093000Z" ? $0.output : "<now>" }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var tokens = JSONTokenizer(bytes: buffer, validatedUTF8: true)
            tokens.skipWhitespace()
            guard let value = try? canonical(&tokens), tokens.isAtEnd else { return text }
            return value
        }
    }

    static func canonical(_ tokens: inout JSONTokenizer) throws -> String {
        defer { tokens.skipWhitespace() }
        switch tokens.peek() ?? 0 {
        case UInt8(ascii: "{"):
            tokens.advance()
            tokens.skipWhitespace()
            var members: [(String, String)] = []
            while tokens.peek() != UInt8(ascii: "}") {
                let name = try tokens.string().text
                tokens.skipWhitespace()
                try tokens.expect(UInt8(ascii: ":"), "':'")
                tokens.skipWhitespace()
                members.append((name, try canonical(&tokens)))
                if tokens.peek() == UInt8(ascii: ",") { tokens.advance(); tokens.skipWhitespace() }
            }
            tokens.advance()
            return "{" + members.sorted { $0.0 < $1.0 }.map { "\($0.0.debugDescription):\($0.1)" }.joined(separator: ",") + "}"
        case UInt8(ascii: "["):
            tokens.advance()
            tokens.skipWhitespace()
            var elements: [String] = []
            while tokens.peek() != UInt8(ascii: "]") {
                elements.append(try canonical(&tokens))
                if tokens.peek() == UInt8(ascii: ",") { tokens.advance(); tokens.skipWhitespace() }
            }
            tokens.advance()
            return "[" + elements.joined(separator: ",") + "]"
        case UInt8(ascii: "\""):
            return try tokens.string().text.debugDescription
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let start = tokens.position
            while let byte = tokens.peek(), byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") { tokens.advance() }
            return String(decoding: tokens.bytes[start..<tokens.position], as: UTF8.self)
        default:
            return exactNumber(String(decoding: try tokens.number().text, as: UTF8.self))
        }
    }

    /// A number's exact decimal value as `±DIGITSeEXPONENT`, its digits with
    /// no zero first or last: every spelling of one value gives one text.
    static func exactNumber(_ text: String) -> String {
        let negative = text.hasPrefix("-")
        let parts = text.dropFirst(negative ? 1 : 0).split(maxSplits: 1, whereSeparator: { $0 == "e" || $0 == "E" })
        var exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let fraction = mantissa.count > 1 ? String(mantissa[1]) : ""
        var digits = String(mantissa[0]) + fraction
        exponent -= fraction.count
        while digits.hasPrefix("0") { digits.removeFirst() }
        while digits.hasSuffix("0") { digits.removeLast(); exponent += 1 }
        if digits.isEmpty { return "0" }
        return (negative ? "-" : "") + digits + "e" + String(exponent)
    }

    @Test func theSameRequestsGetTheSameAnswersOnBothBackends() async throws {
        if let reason = PostgresCluster.unavailableReason { try Test.cancel(Comment(rawValue: reason)) }
        var random = SeededRandom(seed: 12)
        let requests = Self.edgeCases() + (0..<FuzzTests.requestCount).map { _ in FuzzRequest.make(&random) }
        let options = ServerOptions(token: nil, maxBodySize: 2 * 1024 * 1024, requestLogLevel: .trace)
        func answers(_ backend: Backend) async throws -> [(status: Int, body: String)] {
            try await withTestDatabase(backend) { repository, _ in try await makeApp(repository, options: options).test(.router) { client in
                for id in ["a", "b", "7"] {
                    try await client.send(.post, "/todos", #"{"id":"\#(id)","title":"seed \#(id)","completed":false}"#)
                }
                var answers: [(status: Int, body: String)] = []
                for request in requests {
                    let response = try await client.execute(
                        uri: request.uri, method: request.method, headers: request.headers, body: request.body.map { ByteBuffer(bytes: $0) }
                    )
                    answers.append((Int(response.status.code), Self.comparable(response)))
                }
                return answers
            } }
        }
        let sqlite = try await answers(.sqlite)
        let postgres = try await answers(.postgres)
        var differences = 0
        for (index, request) in requests.enumerated() where sqlite[index].status != postgres[index].status || sqlite[index].body != postgres[index].body {
            differences += 1
            Issue.record("#\(index) \(request)\n  sqlite   \(sqlite[index].status) \(sqlite[index].body.prefix(300))\n  postgres \(postgres[index].status) \(postgres[index].body.prefix(300))")
            if differences > 40 { break }
        }
    }
}
