import Foundation
import Hummingbird

// MARK: - Answers sent a page at a time
// Every answer that names many resources (PROPFIND Depth 1, the three
// REPORTs) is read a bounded page of todos at a time and sent as it is
// written, so the server's memory stays flat however long the list.

extension CalDAVController {
    /// Resources read and written a page at a time: a report of 100,000
    /// todos holds one page (at most 2,000 todos, and no more than the
    /// repositories' page budget of bytes) and a few hundred KB of XML at
    /// once, never the whole list.
    static var pageSize: Int { 2_000 }
    /// The XML written before it is sent on: a large resource goes out as it is written.
    static var flushBytes: Int { 256 * 1024 }
    /// The hrefs of a calendar-multiget resolved at once; their todos are
    /// read a page's bytes at a time (`CalendarPage.maxBytes`).
    static var multigetChunk: Int { 2_000 }

    /// A 207 whose body is `head`, then each resource of `first` and of the
    /// pages after it as `add` writes it, then `tail`, sent on every
    /// `flushBytes`.
    static func streamed(
        _ head: Multistatus, first: CalendarPage, todos: Repository, since cursor: Int?,
        tail: @escaping @Sendable (inout Multistatus) -> Void = { _ in },
        add: @escaping @Sendable (inout Multistatus, CalendarObject) -> Void
    ) -> Response {
        Response(status: .multiStatus, headers: Multistatus.headers, body: ResponseBody { writer in
            var part = head
            var page = first
            while true {
                for object in page.objects {
                    add(&part, object)
                    if part.pending >= flushBytes { try await writer.write(ByteBuffer(bytes: part.take())) }
                }
                guard let position = page.next else { break }
                page = try await todos.calendarObjects(since: cursor, after: position, limit: pageSize)
            }
            tail(&part)
            part.close()
            try await writer.write(ByteBuffer(bytes: part.take()))
            try await writer.finish(nil)
        })
    }

    /// The resources `hrefs` name, each answered under the href the client
    /// asked with; one not there is a 404 response.
    static func multiget(
        _ hrefs: [String], from todos: Repository, paths: CalDAVPaths, asked: [DAV.Property]?, into multistatus: inout Multistatus
    ) async throws {
        let names = hrefs.map { paths.name(fromHref: $0) }
        let named = try await todos.calendarIDs(names: names.compactMap { $0 })
        // Each href's todo id, where its name can be one.
        let ids = names.map { name in name.flatMap { named[$0] ?? ($0.hasSuffix(".ics") ? String($0.dropLast(4)) : nil) } }
        var start = 0
        while start < hrefs.count {
            // The todos of the hrefs from `start`, a page's bytes at most.
            let wanted = ids[start...].compactMap { $0 }
            let (objects, consumed) = try await todos.calendarObjects(ids: wanted, maxBytes: CalendarPage.maxBytes)
            var byName: [String: CalendarObject] = [:]
            for object in objects { byName[objectName(object)] = object }
            var taken = 0
            var index = start
            while index < hrefs.count, ids[index] == nil || taken < consumed {
                if ids[index] != nil { taken += 1 }
                if let name = names[index], let object = byName.removeValue(forKey: name) {
                    let (found, missing) = answer(objectValues(object, asked: asked), asked: asked)
                    multistatus.add(href: hrefs[index], found: found, missing: missing)
                } else {
                    multistatus.addMissing(href: hrefs[index])
                }
                index += 1
            }
            start = index
        }
    }
}
