/// An element of an XML document, its names resolved against their
/// namespaces: what a WebDAV or CalDAV request body says.
public struct XMLElement: Sendable, Equatable {
    public struct Attribute: Sendable, Equatable {
        public var namespace: String
        public var name: String
        public var value: String
    }

    /// The namespace URI (`DAV:`, `urn:ietf:params:xml:ns:caldav`), empty for none.
    public var namespace: String
    /// The local name, without its prefix.
    public var name: String
    public var attributes: [Attribute]
    public var children: [XMLElement]
    /// The character data directly inside, concatenated.
    public var text: String

    public init(namespace: String, name: String, attributes: [Attribute] = [], children: [XMLElement] = [], text: String = "") {
        self.namespace = namespace
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// Whether this element is `name` in `namespace`.
    public func `is`(_ namespace: String, _ name: String) -> Bool {
        self.namespace == namespace && self.name == name
    }

    /// The first child `name` in `namespace`.
    public func child(_ namespace: String, _ name: String) -> XMLElement? {
        children.first { $0.is(namespace, name) }
    }

    /// Every child `name` in `namespace`.
    public func children(_ namespace: String, _ name: String) -> [XMLElement] {
        children.filter { $0.is(namespace, name) }
    }

    /// The value of the attribute `name` (with no namespace).
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.namespace.isEmpty && $0.name == name }?.value
    }
}

/// Why a body is not XML this reader reads, with where it went wrong.
public enum XMLReadError: Error, Equatable, Sendable {
    /// A document type declaration: never read, so no entity is ever defined or expanded.
    case doctype
    /// A reference to an entity other than the five XML predefines.
    case entity(String)
    case notUTF8
    case syntax(expected: String, offset: Int)
    case unboundPrefix(String)
    case mismatchedEnd(expected: String, offset: Int)
    case tooDeep(limit: Int)
    case tooManyElements(limit: Int)

    /// What was wrong, in one line, for a 400's body.
    public var message: String {
        switch self {
        case .doctype: "The XML body has a document type declaration (<!DOCTYPE>); none is read here: send the body without it."
        case let .entity(name): "The XML body refers to the entity &\(name);, which is not defined here; use a character reference instead."
        case .notUTF8: "The XML body is not UTF-8 text."
        case let .syntax(expected, offset): "The XML body is not well-formed: expected \(expected) at byte \(offset)."
        case let .unboundPrefix(prefix): "The XML body uses the namespace prefix '\(prefix)' without declaring it."
        case let .mismatchedEnd(expected, offset): "The XML body closes an element other than <\(expected)> at byte \(offset)."
        case let .tooDeep(limit): "The XML body nests elements more than \(limit) deep."
        case let .tooManyElements(limit): "The XML body has more than \(limit) elements."
        }
    }
}
