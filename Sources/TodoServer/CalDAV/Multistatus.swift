import Hummingbird
import TodoXML

/// The namespaces CalDAV speaks in, and the names of what the server answers.
enum DAV {
    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    static let calendarServer = "http://calendarserver.org/ns/"

    /// A property by namespace and local name.
    struct Property: Hashable, Sendable {
        let namespace: String
        let name: String

        init(_ namespace: String, _ name: String) {
            self.namespace = namespace
            self.name = name
        }


        var qualifiedName: String {
            switch namespace {
            case DAV.dav: "d:" + name
            case DAV.caldav: "c:" + name
            case DAV.calendarServer: "cs:" + name
            default: name
            }
        }

        /// An element of a namespace `Multistatus` does not declare carries its own.
        func emptyElement() -> String {
            switch namespace {
            case DAV.dav, DAV.caldav, DAV.calendarServer: "<\(qualifiedName)/>"
            default: "<x:\(XMLText.escape(name)) xmlns:x=\"\(XMLText.escape(namespace))\"/>"
            }
        }
    }
}

/// A property's value: markup already written, or text to escape.
enum XMLValue {
    case markup(String)
    case text(String)
}

/// A 207 Multi-Status body (RFC 4918, 13), written as bytes as it is built.
struct Multistatus {
    private var bytes = Array((#"<?xml version="1.0" encoding="utf-8"?>"#
        + #"<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">"#).utf8)

    /// The rest of a body already begun.
    static func continuation() -> Multistatus {
        var rest = Multistatus()
        rest.bytes = []
        return rest
    }

    private mutating func write(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// How many bytes are written and not yet taken.
    var pending: Int { bytes.count }

    /// The bytes written since the last take, for a response sent in parts.
    mutating func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    /// Ends the body: what follows is the closing tag.
    mutating func close() {
        write("</d:multistatus>")
    }

    /// A resource's properties: those it has with their values, those asked for that it lacks as 404.
    mutating func add(href: String, found: [(DAV.Property, XMLValue)], missing: [DAV.Property]) {
        write("<d:response><d:href>")
        XMLText.append(escaping: href, to: &bytes)
        write("</d:href>")
        if !found.isEmpty {
            write("<d:propstat><d:prop>")
            for (property, value) in found {
                let tag = property.qualifiedName
                write("<" + tag + ">")
                switch value {
                case let .markup(markup): write(markup)
                case let .text(text): XMLText.append(escaping: text, to: &bytes)
                }
                write("</" + tag + ">")
            }
            write("</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>")
        }
        if !missing.isEmpty {
            write("<d:propstat><d:prop>")
            for property in missing { write(property.emptyElement()) }
            write("</d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>")
        }
        write("</d:response>")
    }

    /// A resource that is not there (a multiget's unknown href, a sync report's deleted one).
    mutating func addMissing(href: String) {
        write("<d:response><d:href>")
        XMLText.append(escaping: href, to: &bytes)
        write("</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>")
    }

    mutating func addSyncToken(_ token: String) {
        write("<d:sync-token>")
        XMLText.append(escaping: token, to: &bytes)
        write("</d:sync-token>")
    }

    consuming func response() -> Response {
        close()
        return Response(status: .multiStatus, headers: Self.headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static let headers: HTTPFields = [.contentType: "application/xml; charset=utf-8"]

    /// A precondition's error body (RFC 4918, 16), as a CalDAV client reads it.
    static func error(_ status: HTTPResponse.Status, _ condition: DAV.Property, _ message: String) -> Response {
        let body = #"<?xml version="1.0" encoding="utf-8"?>"#
            + #"<d:error xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
            + condition.emptyElement() + "<d:responsedescription>\(XMLText.escape(message))</d:responsedescription></d:error>"
        return Response(status: status, headers: [.contentType: "application/xml; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
