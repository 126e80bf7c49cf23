import Foundation

extension CalendarQueryFilter {
    /// A text-match (RFC 4791, 9.7.5) in one of the collations a client may
    /// name (RFC 4790: `i;octet`, `i;ascii-casemap`; RFC 5051: `i;unicode-casemap`).
    struct TextMatch: Sendable {
        enum Collation: String, Sendable {
            case octet = "i;octet", asciiCasemap = "i;ascii-casemap", unicodeCasemap = "i;unicode-casemap"
        }

        /// RFC 4791 knows substring matches; CardDAV's `match-type` is read too.
        enum Kind: String, Sendable { case contains, equals, startsWith = "starts-with", endsWith = "ends-with" }

        var text: [UInt8]
        var collation: Collation
        var negate: Bool
        var kind: Kind
        /// Knuth-Morris-Pratt's table of `text`: a substring is found in
        /// time linear in the value, whatever the two hold.
        private let fallback: [Int]

        init(text: [UInt8], collation: Collation, negate: Bool, kind: Kind) {
            self.text = text
            self.collation = collation
            self.negate = negate
            self.kind = kind
            var fallback = [Int](repeating: 0, count: text.count)
            var length = 0
            for index in text.indices.dropFirst() {
                while length > 0, text[index] != text[length] { length = fallback[length - 1] }
                if text[index] == text[length] { length += 1 }
                fallback[index] = length
            }
            self.fallback = fallback
        }

        /// Whether any of `values` matches, turned around by `negate-condition`.
        func matches(_ values: [String]) -> Bool {
            values.contains { test(Self.folded($0, collation)) } != negate
        }

        static func folded(_ text: String, _ collation: Collation) -> [UInt8] {
            switch collation {
            case .octet:
                return Array(text.utf8)
            case .asciiCasemap:
                return text.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
            case .unicodeCasemap:
                // RFC 5051: each character's (simple) titlecase, then NFKD.
                var mapped = String.UnicodeScalarView()
                for scalar in text.unicodeScalars {
                    let title = scalar.properties.titlecaseMapping.unicodeScalars
                    if title.count == 1 { mapped.append(contentsOf: title) } else { mapped.append(scalar) }
                }
                return Array(String(mapped).decomposedStringWithCompatibilityMapping.utf8)
            }
        }

        private func test(_ value: [UInt8]) -> Bool {
            switch kind {
            case .equals: return value == text
            case .startsWith: return value.starts(with: text)
            case .endsWith: return value.count >= text.count && value[(value.count - text.count)...].elementsEqual(text)
            case .contains:
                guard !text.isEmpty else { return true }
                var length = 0
                for byte in value {
                    while length > 0, byte != text[length] { length = fallback[length - 1] }
                    if byte == text[length] { length += 1 }
                    if length == text.count { return true }
                }
                return false
            }
        }
    }
}
