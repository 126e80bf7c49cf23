import Foundation
import TodoSync

/// A json-server in memory, behind the transport protocol: v1 (random string
/// ids, client ids ignored, DELETE returns the item) or v0.17 (numeric ids,
/// a client id kept if free, 500 on a taken one). Neither has ETags or a feed.
actor FakeJSONServer: HTTPTransport {
    enum Flavor: Sendable { case v1, v017 }

    let flavor: Flavor
    private(set) var items: [[String: JSONValue]] = []
    private var random: SeededRandom
    private var nextNumber: Int64 = 1
    /// Chance, from 0 to 1, that a request meets a fault.
    var faultRate = 0.0
    private(set) var requests = 0

    init(_ flavor: Flavor, seed: UInt64 = 1) {
        self.flavor = flavor
        random = SeededRandom(seed: seed)
    }

    func setFaultRate(_ rate: Double) { faultRate = rate }

    func insert(_ object: [String: JSONValue]) { items.append(object) }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        requests += 1
        let fault = faultRate > 0 && random.chance(faultRate) ? random.next() % 5 : nil
        switch fault {
        case 0?: throw TransportError(.timeout, "fake")
        case 1?: return HTTPResponseData(status: 500, body: Array("<html>Internal Server Error</html>".utf8))
        case 2? where request.method == "GET": return HTTPResponseData(status: 200, body: Array("[]".utf8))
        case 3? where request.method == "GET": return HTTPResponseData(status: 200, body: Array(respond(request).body.prefix(10)))
        default: break
        }
        let response = respond(request)
        if fault == 4 { throw TransportError(.connectionClosed, "fake, after applying") }
        return response
    }

    private func respond(_ request: HTTPRequestData) -> HTTPResponseData {
        let path = request.url.replacingOccurrences(of: "http://fake", with: "")
        let parts = path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
        let body = request.body.flatMap { try? JSONValue.parse($0) }
        guard parts.first == "todos" else { return notFound }
        if parts.count == 1 {
            switch request.method {
            case "GET": return json(200, .array(items.map(JSONValue.object)))
            case "POST":
                guard case var .object(object)? = body else { return HTTPResponseData(status: 400) }
                return create(&object)
            default: return HTTPResponseData(status: 404)
            }
        }
        guard let index = items.firstIndex(where: { $0["id"].flatMap(Self.text) == parts[1] }) else { return notFound }
        switch request.method {
        case "GET": return json(200, .object(items[index]))
        case "PATCH":
            guard case let .object(changes)? = body else { return HTTPResponseData(status: 400) }
            for (key, value) in changes where key != "id" { items[index][key] = value }
            return json(200, .object(items[index]))
        case "DELETE":
            let removed = items.remove(at: index)
            return flavor == .v1 ? json(200, .object(removed)) : json(200, .object([:]))
        default: return HTTPResponseData(status: 404)
        }
    }

    private func create(_ object: inout [String: JSONValue]) -> HTTPResponseData {
        switch flavor {
        case .v1:
            object["id"] = .string(random.word(11))
        case .v017:
            if let id = object["id"] {
                if items.contains(where: { $0["id"] == id }) { return HTTPResponseData(status: 500, body: Array("Error: Insert failed, duplicate id".utf8)) }
            } else {
                object["id"] = .integer(nextNumber)
                nextNumber += 1
            }
        }
        items.append(object)
        return json(201, .object(object))
    }

    private var notFound: HTTPResponseData {
        flavor == .v1 ? json(404, .object(["error": .string("Not Found")])) : json(404, .object([:]))
    }

    private func json(_ status: Int, _ value: JSONValue) -> HTTPResponseData {
        HTTPResponseData(status: status, headers: ["Content-Type": "application/json"], body: value.bytes)
    }

    static func text(_ value: JSONValue) -> String? {
        switch value {
        case let .string(text): text
        case let .integer(number): String(number)
        default: nil
        }
    }
}

/// SplitMix64: small, fast and the same on every platform, so a seed replays a case.
struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double(next() % 1_000_000) / 1_000_000 < probability
    }

    mutating func word(_ length: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<length).map { _ in letters[Int(next() % UInt64(letters.count))] })
    }
}
