import Testing
@testable import TodoXML

/// WebDAV and CalDAV bodies from the network: read with their namespaces,
/// and nothing in them can make the reader define, expand or fetch an entity.
@Suite("XML from the network")
struct XMLReaderTests {
    static func read(_ text: String, maxElements: Int = 100_000) throws(XMLReadError) -> XMLElement {
        try XMLReader.read(Array(text.utf8), maxElements: maxElements)
    }

    @Test func aPropfindIsReadWithItsNamespaces() throws {
        let root = try Self.read("""
            <?xml version="1.0" encoding="utf-8" ?>
            <!-- a client's comment -->
            <d:propfind xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/" xmlns="urn:ietf:params:xml:ns:caldav">
              <d:prop>
                <d:displayname/>
                <cs:getctag />
                <supported-calendar-component-set></supported-calendar-component-set>
                <d:href>/a&amp;b/&#x41;&#66;<![CDATA[<raw>]]></d:href>
              </d:prop>
            </d:propfind>
            """)
        #expect(root.is("DAV:", "propfind"))
        let prop = try #require(root.child("DAV:", "prop"))
        #expect(prop.children.map(\.name) == ["displayname", "getctag", "supported-calendar-component-set", "href"])
        #expect(prop.children[1].namespace == "http://calendarserver.org/ns/")
        #expect(prop.children[2].namespace == "urn:ietf:params:xml:ns:caldav")
        #expect(prop.child("DAV:", "href")?.text == "/a&b/AB<raw>")
    }

    @Test func attributesAndRedeclaredPrefixesResolveInScope() throws {
        let root = try Self.read("""
            <C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR">\
            <x:comp-filter xmlns:x="urn:ietf:params:xml:ns:caldav" name='VTODO'><C:prop-filter name="COMPLETED">\
            <C:is-not-defined/></C:prop-filter></x:comp-filter></C:comp-filter></C:filter></C:calendar-query>
            """)
        let todo = root.children[0].children[0].children[0]
        #expect(todo.is("urn:ietf:params:xml:ns:caldav", "comp-filter"))
        #expect(todo.attribute("name") == "VTODO")
        #expect(todo.children[0].attribute("name") == "COMPLETED")
    }

    @Test func aDocumentTypeDeclarationIsNeverRead() {
        let billionLaughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <d:propfind xmlns:d="DAV:"><d:prop>&lol2;</d:prop></d:propfind>
            """
        #expect(throws: XMLReadError.doctype) { try Self.read(billionLaughs) }
        let external = """
            <?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><d:propfind xmlns:d="DAV:">&xxe;</d:propfind>
            """
        #expect(throws: XMLReadError.doctype) { try Self.read(external) }
        // An entity used with no declaration is refused by name, not looked up.
        #expect(throws: XMLReadError.entity("xxe")) { try Self.read(#"<d:a xmlns:d="DAV:">&xxe;</d:a>"#) }
        #expect(throws: XMLReadError.doctype) { try Self.read(#"<d:a xmlns:d="DAV:"><!ENTITY x "y"></d:a>"#) }
    }

    @Test func whatIsNotWellFormedIsRefusedWithWhere() {
        #expect(throws: XMLReadError.mismatchedEnd(expected: "a", offset: 5)) { try Self.read("<a></b>") }
        #expect(throws: XMLReadError.unboundPrefix("d")) { try Self.read("<d:a/>") }
        #expect((try? Self.read("<a>")) == nil)
        #expect((try? Self.read("<a/><b/>")) == nil)
        #expect((try? Self.read("<a b=1/>")) == nil)
        #expect((try? Self.read("<a b='1' b='2'/>")) == nil)
        #expect((try? Self.read("<a>&#0;</a>")) == nil)
        #expect((try? Self.read("<a>&#xD800;</a>")) == nil)
        #expect((try? Self.read("")) == nil)
        #expect(throws: XMLReadError.notUTF8) { try XMLReader.read([0x3C, 0x61, 0xFF, 0x2F, 0x3E]) }
    }

    @Test func depthAndSizeAreBounded() {
        let deep = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
        #expect(throws: XMLReadError.tooDeep(limit: XMLReader.maxDepth)) { try Self.read(deep) }
        let wide = "<d:propfind xmlns:d=\"DAV:\"><d:prop>" + String(repeating: "<d:x/>", count: 10_000) + "</d:prop></d:propfind>"
        #expect(throws: XMLReadError.tooManyElements(limit: 1_000)) { try Self.read(wide, maxElements: 1_000) }
        #expect((try? Self.read(wide))?.children.first?.children.count == 10_000)
    }

    @Test func controlCharactersXMLCannotHoldAreWrittenAsAReplacement() throws {
        let root = try Self.read("<a>\(XMLText.escape("bell\u{7} and nul\u{0} and tab\t"))</a>")
        #expect(root.text == "bell\u{FFFD} and nul\u{FFFD} and tab\t")
    }

    @Test func textIsEscapedForCharacterDataAndAttributes() throws {
        let text = "a<b>&\"c'\r\nd é"
        let root = try Self.read("<a v=\"\(XMLText.escape(text))\">\(XMLText.escape(text))</a>")
        #expect(root.text == text)
        #expect(root.attribute("v") == text)
    }
}
