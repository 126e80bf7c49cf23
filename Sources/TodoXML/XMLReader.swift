/// Reads an XML document (UTF-8) into its root element, strictly and in one
/// pass: a document type declaration is refused, never read, so no entity
/// is ever defined, expanded or fetched (no "billion laughs", no external
/// entity); only the five predefined entities and character references are
/// read. Depth and the number of elements are bounded.
public struct XMLReader {
    public static let maxDepth = 64

    private let bytes: [UInt8]
    private var position = 0
    private let maxElements: Int
    private var elements = 0

    private init(bytes: [UInt8], maxElements: Int) {
        self.bytes = bytes
        self.maxElements = maxElements
    }

    /// The root element of `bytes`.
    public static func read(_ bytes: [UInt8], maxElements: Int = 100_000) throws(XMLReadError) -> XMLElement {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw .notUTF8 }
        var reader = XMLReader(bytes: bytes, maxElements: maxElements)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.position = 3 }
        try reader.skipMisc()
        guard reader.peek() == UInt8(ascii: "<") else { throw reader.syntax("the root element") }
        let root = try reader.element(depth: 1, scopes: [["xml": "http://www.w3.org/XML/1998/namespace"]])
        try reader.skipMisc()
        guard reader.position == bytes.count else { throw reader.syntax("the end of the document") }
        return root
    }

    // MARK: - Structure

    /// Whitespace, comments and processing instructions (the XML declaration
    /// among them); a document type declaration is refused.
    private mutating func skipMisc() throws(XMLReadError) {
        while true {
            skipWhitespace()
            if starts("<?") {
                try skip(past: "?>")
            } else if starts("<!--") {
                try skip(past: "-->")
            } else if starts("<!DOCTYPE") || starts("<!doctype") || starts("<!ENTITY") {
                throw .doctype
            } else {
                return
            }
        }
    }

    private mutating func element(depth: Int, scopes: [[String: String]]) throws(XMLReadError) -> XMLElement {
        guard depth <= Self.maxDepth else { throw .tooDeep(limit: Self.maxDepth) }
        elements += 1
        guard elements <= maxElements else { throw .tooManyElements(limit: maxElements) }
        position += 1 // <
        let qualifiedName = try name()
        var rawAttributes: [(name: String, value: String)] = []
        var attributeNames = Set<String>()
        var scope: [String: String] = [:]
        var selfClosing = false
        while true {
            let hadSpace = skipWhitespace()
            if peek() == UInt8(ascii: "/") {
                position += 1
                try expect(">")
                selfClosing = true
                break
            }
            if peek() == UInt8(ascii: ">") {
                position += 1
                break
            }
            guard hadSpace else { throw syntax("whitespace, '>' or '/>'") }
            let attributeName = try name()
            skipWhitespace()
            try expect("=")
            skipWhitespace()
            let value = try quoted()
            if attributeName == "xmlns" {
                scope[""] = value
            } else if attributeName.hasPrefix("xmlns:") {
                scope[String(attributeName.dropFirst(6))] = value
            } else {
                guard attributeNames.insert(attributeName).inserted else { throw syntax("each attribute once") }
                rawAttributes.append((attributeName, value))
            }
        }
        let scopes = scope.isEmpty ? scopes : scopes + [scope]
        let (namespace, local) = try resolve(qualifiedName, scopes: scopes, isAttribute: false)
        var attributes: [XMLElement.Attribute] = []
        for attribute in rawAttributes {
            let (attributeNamespace, attributeName) = try resolve(attribute.name, scopes: scopes, isAttribute: true)
            attributes.append(.init(namespace: attributeNamespace, name: attributeName, value: attribute.value))
        }
        var result = XMLElement(namespace: namespace, name: local, attributes: attributes)
        if selfClosing { return result }
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else { throw syntax("</\(qualifiedName)>") }
            if byte == UInt8(ascii: "<") {
                if starts("</") {
                    position += 2
                    let end = position
                    guard try name() == qualifiedName else { throw .mismatchedEnd(expected: qualifiedName, offset: end) }
                    skipWhitespace()
                    try expect(">")
                    result.text = String(decoding: text, as: UTF8.self)
                    return result
                } else if starts("<!--") {
                    try skip(past: "-->")
                } else if starts("<![CDATA[") {
                    position += 9
                    let start = position
                    try skip(past: "]]>")
                    text.append(contentsOf: bytes[start..<(position - 3)])
                } else if starts("<?") {
                    try skip(past: "?>")
                } else if starts("<!") {
                    throw .doctype
                } else {
                    result.children.append(try element(depth: depth + 1, scopes: scopes))
                }
            } else if byte == UInt8(ascii: "&") {
                try reference(into: &text)
            } else {
                text.append(byte)
                position += 1
            }
        }
    }

    private func resolve(_ qualified: String, scopes: [[String: String]], isAttribute: Bool) throws(XMLReadError) -> (String, String) {
        let parts = qualified.split(separator: ":", maxSplits: 1)
        let (prefix, local) = parts.count == 2 ? (String(parts[0]), String(parts[1])) : ("", qualified)
        // An attribute without a prefix is in no namespace (Namespaces in XML, 6.2).
        if prefix.isEmpty && isAttribute { return ("", local) }
        for scope in scopes.reversed() {
            if let uri = scope[prefix] { return (uri, local) }
        }
        guard prefix.isEmpty else { throw .unboundPrefix(prefix) }
        return ("", local)
    }

    // MARK: - Tokens

    private mutating func name() throws(XMLReadError) -> String {
        let start = position
        while let byte = peek(), !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
            || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
            || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "&")) {
            position += 1
        }
        guard position > start else { throw syntax("a name") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func quoted() throws(XMLReadError) -> String {
        guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { throw syntax("a quoted value") }
        position += 1
        var value: [UInt8] = []
        while let byte = peek(), byte != quote {
            if byte == UInt8(ascii: "<") { throw syntax("no '<' in an attribute value") }
            if byte == UInt8(ascii: "&") {
                try reference(into: &value)
            } else {
                value.append(byte)
                position += 1
            }
        }
        guard peek() == quote else { throw syntax("the closing quote") }
        position += 1
        return String(decoding: value, as: UTF8.self)
    }

    /// `&amp;` and the other four predefines, `&#10;`, `&#xA;`; any other name is refused.
    private mutating func reference(into text: inout [UInt8]) throws(XMLReadError) {
        let start = position
        position += 1
        while let byte = peek(), byte != UInt8(ascii: ";") {
            guard position - start < 12 else { throw syntax("';' ending a reference") }
            position += 1
        }
        guard peek() == UInt8(ascii: ";") else { throw syntax("';' ending a reference") }
        let name = String(decoding: bytes[(start + 1)..<position], as: UTF8.self)
        position += 1
        let scalar: Unicode.Scalar?
        switch name {
        case "amp": scalar = "&"
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
            if name.hasPrefix("#x") {
                scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if name.hasPrefix("#") {
                scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
            } else {
                throw .entity(name)
            }
        }
        guard let scalar, scalar.value != 0 else { throw syntax("a valid character reference") }
        text.append(contentsOf: UTF8.encode(scalar)!)
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = position
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
        return position > start
    }

    private mutating func skip(past terminator: StaticString) throws(XMLReadError) {
        let count = terminator.utf8CodeUnitCount
        while position + count <= bytes.count {
            if starts(terminator) {
                position += count
                return
            }
            position += 1
        }
        throw syntax("'\(terminator)'")
    }

    private func starts(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        for offset in 0..<count where bytes[position + offset] != text.utf8Start[offset] { return false }
        return true
    }

    private mutating func expect(_ text: StaticString) throws(XMLReadError) {
        guard starts(text) else { throw syntax("'\(text)'") }
        position += text.utf8CodeUnitCount
    }

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private func syntax(_ expected: String) -> XMLReadError {
        .syntax(expected: expected, offset: position)
    }
}

/// Text escaped for XML character data and attribute values.
public enum XMLText {
    public static func escape(_ text: String) -> String {
        var out: [UInt8] = []
        append(escaping: text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text`, escaped, to `out`: a response written as bytes.
    public static func append(escaping text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            guard bytes.contains(where: needsEscape) else {
                out.append(contentsOf: bytes)
                return
            }
            out.reserveCapacity(out.count + bytes.count + bytes.count / 8)
            // Runs with nothing to escape are copied whole.
            var start = 0
            for (index, byte) in bytes.enumerated() where needsEscape(byte) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                switch byte {
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'"): out.append(contentsOf: "&apos;".utf8)
                // A CR is kept as a reference: a parser turns a raw one into LF.
                case 0x0D: out.append(contentsOf: "&#13;".utf8)
                // Other control characters XML 1.0 allows in no form: U+FFFD stands for them.
                default: out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                }
                start = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte < 0x20 && byte != 0x09 && byte != 0x0A
    }
}
