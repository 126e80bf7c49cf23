import Foundation
import Hummingbird

/// What an `If-Match` header asks for.
public enum IfMatch: Sendable, Equatable {
    /// `*`: the todo must exist, in any version.
    case any
    /// One of these versions. A weak tag (`W/"3"`) never matches, as RFC 9110
    /// asks for `If-Match`, and neither does a tag that is not a version.
    case versions(Set<Int>)

    /// Parses the header, or returns nil when there is none.
    public init?(headers: HTTPFields) {
        let values = headers[values: .ifMatch]
        guard !values.isEmpty else { return nil }
        var versions = Set<Int>()
        for value in values {
            for rawTag in value.split(separator: ",") {
                let tag = rawTag.trimmingCharacters(in: .whitespaces)
                if tag == "*" {
                    self = .any
                    return
                }
                if tag.count >= 3, tag.hasPrefix("\""), tag.hasSuffix("\""),
                    let version = Int(tag.dropFirst().dropLast())
                {
                    versions.insert(version)
                }
            }
        }
        self = .versions(versions)
    }

    /// True when a todo at `version` satisfies the condition.
    public func matches(version: Int) -> Bool {
        switch self {
        case .any: true
        case .versions(let versions): versions.contains(version)
        }
    }
}
