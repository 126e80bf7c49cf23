import Hummingbird
import HummingbirdTesting

/// Everything a client can learn from one response: two servers that must
/// answer alike are compared by it.
struct Answer: Equatable, CustomStringConvertible {
    let status: Int
    let body: String
    let headers: [String]

    init(_ response: TestResponse) {
        status = response.status.code
        body = response.text
        headers = ["ETag", "X-Cursor", "X-Total-Count", "Location", "Retry-After", "WWW-Authenticate"].map {
            "\($0): \(response.headers[HTTPFields.Element.Name($0)!] ?? "-")"
        }
    }

    var description: String { "\(status) \(headers.filter { !$0.hasSuffix(": -") }) \(body)" }
}
