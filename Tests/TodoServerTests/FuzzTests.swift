import Foundation
import TestSupport
import Hummingbird
import HummingbirdTesting
import Testing
import TodoServer

/// Random requests, from a fixed seed, at the router: whatever comes, no
/// crash, no 5xx, no change made by a request that was refused, and every
/// request finishes.
///
/// The generator mixes valid todos with the shapes that broke the server
/// before (deep nesting, duplicate names, NUL, huge numbers, long sorts) and
/// with noise, so most requests reach the code past the first check. The
/// seed is fixed so a failure repeats; `TODO_FUZZ_SEED` picks another.
struct FuzzTests {
    static let requestCount = 1_500
    /// Only a hang detector: a request taking this long is stuck, not slow.
    static let hangLimit: Duration = .seconds(20)

    @Test func randomRequestsNeverCrashNever5xxAndRefusedOnesChangeNothing() async throws {
        let seed = ProcessInfo.processInfo.environment["TODO_FUZZ_SEED"].flatMap(UInt64.init) ?? 12
        var random = SeededRandom(seed: seed)
        let requests = (0..<Self.requestCount).map { _ in FuzzRequest.make(&random) }
        let options = ServerOptions(token: nil, maxBodySize: 64 * 1024, requestLogLevel: .trace)
        try await withServer(options: options) { client in
            for id in ["a", "b", "7"] {
                try await client.send(.post, "/todos", #"{"id":"\#(id)","title":"seed \#(id)","completed":false}"#)
            }
            var refused = 0
            for (index, request) in requests.enumerated() {
                let before = try await Self.snapshot(client)
                let response = try await Self.withHangLimit {
                    try await client.execute(uri: request.uri, method: request.method, headers: request.headers, body: request.body.map { ByteBuffer(bytes: $0) })
                }
                let label = "seed \(seed) #\(index): \(request)"
                #expect(response.status.code < 500, "\(label) -> \(response.status) \(response.text.prefix(200))")
                guard response.status.code >= 400 else { continue }
                refused += 1
                let after = try await Self.snapshot(client)
                #expect(after == before, "\(label) was refused with \(response.status) but changed the data")
                if request.method != .head {
                    // CalDAV's preconditions answer in XML (RFC 4918, 16); every other refusal in JSON.
                    let xmlError = request.uri.hasPrefix("/dav") && response.text.contains("<d:error")
                    #expect(response.errorMessage != nil || xmlError, "\(label) -> \(response.status) without an error body")
                }
            }
            // The generator must reach both sides, or the test proves little.
            #expect(refused > Self.requestCount / 10)
            #expect(refused < Self.requestCount * 9 / 10)
        }
    }

    /// Every todo and the change feed's position, as the client sees them.
    private static func snapshot(_ client: some TestClientProtocol) async throws -> String {
        let response = try await client.execute(uri: "/todos?_since=0", method: .get)
        return response.text
    }

    private static func withHangLimit<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: hangLimit)
                return nil
            }
            guard let first = try await group.next(), let result = first else {
                group.cancelAll()
                throw FuzzHang()
            }
            group.cancelAll()
            return result
        }
    }
}

struct FuzzHang: Error {}

/// One generated request.
struct FuzzRequest: CustomStringConvertible, Sendable {
    var method: HTTPRequest.Method
    var uri: String
    var headers: HTTPFields
    var body: [UInt8]?

    var description: String {
        let shownBody = body.map { String(decoding: $0.prefix(120), as: UTF8.self).debugDescription + " (\($0.count) bytes)" } ?? "no body"
        return "\(method) \(uri.prefix(160)) \(headers) \(shownBody)"
    }

    static func make(_ random: inout SeededRandom) -> FuzzRequest {
        if random.chance(0.25) { return calDAV(&random) }
        let method = random.pick([HTTPRequest.Method.get, .get, .head, .post, .post, .put, .patch, .patch, .delete, .options])
        var uri = random.pick(["/todos", "/todos/" + id(&random), "/health", "/" + noise(&random, ascii: true), "/todos/a/b", "//todos"])
        if random.chance(0.4) {
            uri += "?" + query(&random)
        }
        var headers: HTTPFields = [:]
        if random.chance(0.2) {
            headers[.authorization] = random.pick(["Bearer x", "bearer", "Basic Zm9v", noise(&random, ascii: true)])
        }
        if random.chance(0.2) {
            headers[.ifMatch] = random.pick(["*", #""1""#, #"W/"1""#, #""99999999999999999999""#, noise(&random, ascii: true), #""2", "1""#])
        }
        if random.chance(0.1) {
            headers[.ifNoneMatch] = random.pick(["*", #""1""#, noise(&random, ascii: true)])
        }
        var body: [UInt8]?
        if [.post, .put, .patch].contains(method) || random.chance(0.1) {
            body = Self.body(&random)
            headers[.contentType] = random.pick(["application/json", "text/plain", "application/json; charset=utf-16"])
        }
        return FuzzRequest(method: method, uri: uri, headers: headers, body: body)
    }

    /// A CalDAV request: discovery, reports and resources, with iCalendar and
    /// XML bodies valid, cut, or hostile (entities, a DOCTYPE, deep nesting).
    static func calDAV(_ random: inout SeededRandom) -> FuzzRequest {
        let propfind = HTTPRequest.Method("PROPFIND")!, report = HTTPRequest.Method("REPORT")!
        let method = random.pick([propfind, propfind, report, report, .get, .put, .put, .delete, .options, .head])
        let uri = random.pick([
            "/.well-known/caldav", "/dav/", "/dav/todo/", "/dav/todo/tasks/", "/dav/other/tasks/", "/dav/todo/tasks/a.ics",
            "/dav/todo/tasks/new.ics", "/dav/todo/tasks/" + id(&random) + ".ics", "/dav/todo/tasks/x/y.ics",
        ])
        var headers: HTTPFields = [:]
        if random.chance(0.5) {
            headers[HTTPFields.Element.Name("Depth")!] = random.pick(["0", "1", "infinity", "2", "", noise(&random, ascii: true)])
        }
        if random.chance(0.2) { headers[.ifMatch] = random.pick(["*", #""1""#, #""2""#, noise(&random, ascii: true)]) }
        if random.chance(0.2) { headers[.ifNoneMatch] = random.pick(["*", #""1""#]) }
        if random.chance(0.1) { headers[.authorization] = random.pick(["Basic Zm9v", "Basic " + noise(&random, ascii: true), "Basic"]) }
        let calendar = { (uid: String, component: String, extra: String) in
            "BEGIN:VCALENDAR\r\nBEGIN:\(component)\r\nUID:\(uid)\r\nSUMMARY:fuzz\\, it\r\n\(extra)END:\(component)\r\nEND:VCALENDAR\r\n"
        }
        let xml = [
            #"<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:resourcetype/></d:prop></d:propfind>"#,
            #"<d:sync-collection xmlns:d="DAV:"><d:sync-token></d:sync-token><d:prop><d:getetag/></d:prop></d:sync-collection>"#,
            #"<d:sync-collection xmlns:d="DAV:"><d:sync-token>urn:x-todo-server:sync:1</d:sync-token></d:sync-collection>"#,
            #"<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:href>/dav/todo/tasks/a.ics</d:href><d:href>%ZZ</d:href></c:calendar-multiget>"#,
            #"<c:calendar-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"><c:time-range start="x"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>"#,
            #"<!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><d:propfind xmlns:d="DAV:">&b;</d:propfind>"#,
            #"<d:propfind xmlns:d="DAV:"><d:prop>&xxe;</d:prop></d:propfind>"#,
            String(repeating: "<a>", count: 200) + String(repeating: "</a>", count: 200),
            "<d:x xmlns:d=\"DAV:\">" + noise(&random, ascii: false) + "</d:x>",
        ]
        let icalendar = [
            calendar("a", "VTODO", ""), calendar("new", "VTODO", "PRIORITY:3\r\nCATEGORIES:a,b\r\nDUE;VALUE=DATE:20261224\r\n"),
            calendar("fuzz-\(random.int(in: 0...9))", "VTODO", "X-Y;P=\"a:b\":c\r\n"), calendar("e", "VEVENT", ""),
            calendar(id(&random), "VTODO", "STATUS:COMPLETED\r\nRRULE:FREQ=WEEKLY;BYDAY=MO\r\n"),
            "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:1\r\nEND:VTODO\r\nBEGIN:VTODO\r\nUID:2\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
            "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:f\r\nX-L:a" + String(repeating: "\r\n b", count: random.int(in: 1...20_000)) + "\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
            noise(&random, ascii: false),
        ]
        var body: [UInt8]?
        if method == .put || (method == propfind || method == report) && random.chance(0.8) {
            var text = Array((method == .put ? random.pick(icalendar) : random.pick(xml)).utf8)
            if random.chance(0.2), !text.isEmpty { text = Array(text.prefix(random.int(in: 0...(text.count - 1)))) }
            body = text
        }
        return FuzzRequest(method: method, uri: uri, headers: headers, body: body)
    }

    static func id(_ random: inout SeededRandom) -> String {
        random.pick([
            "a", "b", "7", "missing", "a%00zzz", "%ZZ", "%FF%FE", "a%2Fb", String(repeating: "x", count: 257), "-1",
            "9223372036854775808", "%E2%82%AC", "e" + String(repeating: "%CC%81", count: 200), noise(&random, ascii: true),
        ])
    }

    static func query(_ random: inout SeededRandom) -> String {
        let count = random.chance(0.05) ? random.int(in: 90...1100) : random.int(in: 1...4)
        return (0..<count).map { _ in
            let name = random.pick([
                "_page", "_limit", "_per_page", "_sort", "_order", "_since", "q", "title", "completed", "id", "_bogus", "x y", "%00",
                "f\(random.int(in: 0...2000))", noise(&random, ascii: true),
            ])
            let value: String
            switch name {
            case "_page", "_limit", "_per_page", "_since":
                value = random.pick([
                    "1", "0", "-1", "2", "10000", "10001", "1000000000", "922337203685477582", "4611686018427387905", "9223372036854775807",
                    "99999999999999999999", "1e3", "abc", "",
                ])
            case "_sort":
                let fields = random.int(in: 0...2) == 0 ? random.int(in: 1...2500) : random.int(in: 1...9)
                value = (0..<fields).map { random.chance(0.3) ? "-f\($0)" : "f\($0)" }.joined(separator: ",")
            case "_order":
                value = random.pick(["asc", "desc", "DESC", "up"])
            default:
                value = random.pick(["a", "true", "1", "seed a", "%00", "%FF", noise(&random, ascii: true)])
            }
            return "\(name)=\(value)"
        }.joined(separator: "&")
    }

    static func body(_ random: inout SeededRandom) -> [UInt8] {
        switch random.int(in: 0...9) {
        case 0:
            return Array(noise(&random, ascii: false).utf8)
        case 1:
            // Random bytes: invalid UTF-8, NULs, UTF-16.
            return (0..<random.int(in: 0...64)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 2:
            let depth = random.int(in: 1...700)
            let array = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            return Array(#"{"x":["#.utf8) + Array(Array(repeating: array, count: random.int(in: 1...16)).joined(separator: ",").utf8) + Array("]}".utf8)
        case 3:
            let prefix: [UInt8] = random.pick([[0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF], []])
            return prefix + Array(todo(&random).utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        case 4:
            // A valid todo, cut or with a byte changed.
            var bytes = Array(todo(&random).utf8)
            if random.chance(0.5) {
                bytes = Array(bytes.prefix(random.int(in: 0...bytes.count)))
            } else if !bytes.isEmpty {
                bytes[random.int(in: 0...(bytes.count - 1))] = random.pick(Array(#"{}[]",:\ 0"#.utf8) + [0])
            }
            return bytes
        default:
            return Array(todo(&random).utf8)
        }
    }

    /// A todo-shaped object, often valid, with the members that caused trouble.
    static func todo(_ random: inout SeededRandom) -> String {
        let members = (0..<random.int(in: 0...6)).map { _ in
            random.pick([
                #""title":"buy milk""#, #""title":5"#, #""completed":true"#, #""completed":"yes""#, #""id":"a""#, #""id":"new""#,
                #""id":"a\u0000zzz""#, #""id":7"#, #""id":1.5"#, #""id":null"#, #""id":"""#, #""n":1e999"#, #""n":-0.0E+5"#,
                #""s":"\ud800""#, #""s":"\ud83d\ude00""#, #""\u0074itle":5"#, #""version":99"#, #""updatedAt":"x""#,
                #""o":{"a":1,"a":2}"#, #""o":{"a":[1,2,{"b":null}]}"#, #""title":"ok""#, #""a":1,"#,
            ])
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func noise(_ random: inout SeededRandom, ascii: Bool) -> String {
        let alphabet: [Character] = ascii ? Array("abc_-./%0123456789\"\\{}[]:,") : Array("abc\"\\{}[]:, \0\u{1}é😀\u{301}\u{FEFF}")
        return String((0..<random.int(in: 0...24)).map { _ in random.pick(alphabet) })
    }
}

/// The server suites' draws on the shared generator (`TestSupport`).
extension SeededRandom {
    mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }
    mutating func pick<T>(_ options: [T]) -> T { options[int(in: 0...(options.count - 1))] }
}
