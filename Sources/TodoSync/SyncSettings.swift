import Foundation
import TodoCore

/// What `todo sync` remembers between runs, read and written in this one
/// place: the server, the names of its fields, and the paging the user named.
/// An option given on the command line wins over what is remembered, and is
/// remembered in turn once a sync succeeds.
public struct SyncSettings: Sendable, Hashable {
    public var server: String?
    public var names: FieldNames
    public var paging: ListPaging?
    /// What the last successful sync recorded: the server's kind, where its
    /// change feed was read up to, the digest of a list the bases hold
    /// exactly, when it ended and what it did.
    public private(set) var kind: ServerKind?
    public private(set) var cursor: String?
    public private(set) var listDigest: String?
    public private(set) var lastSyncAt: String?
    public private(set) var lastSummary: String?
    /// A sync to a CalDAV list stored what it read and then did not finish:
    /// the list's sync token it started from cannot be trusted to name
    /// everything since (`markUnfinished`).
    public private(set) var unfinished = false

    public init(server: String? = nil, names: FieldNames = FieldNames(), paging: ListPaging? = nil) {
        self.server = server
        self.names = names
        self.paging = paging
    }

    /// The remembered settings; defaults for what was never set.
    public static func load(from store: any SyncStore) async throws -> SyncSettings {
        func value(_ key: String) async throws -> String? { try await store.syncSetting(key) }
        let defaults = FieldNames()
        var settings = SyncSettings(server: try await value(SyncSettingKey.server))
        settings.kind = try await value(SyncSettingKey.kind).flatMap(ServerKind.init(rawValue:))
        settings.cursor = try await value(SyncSettingKey.cursor)
        settings.listDigest = try await value(SyncSettingKey.listDigest)
        settings.lastSyncAt = try await value(SyncSettingKey.lastSyncAt)
        settings.lastSummary = try await value(SyncSettingKey.lastSummary)
        settings.unfinished = try await value(SyncSettingKey.unfinished) != nil
        settings.names = FieldNames(
            title: try await value(SyncSettingKey.titleField) ?? defaults.title,
            completed: try await value(SyncSettingKey.completedField) ?? defaults.completed,
            createdAt: try await value(SyncSettingKey.createdAtField) ?? defaults.createdAt,
            updatedAt: try await value(SyncSettingKey.updatedAtField) ?? defaults.updatedAt,
            completedAt: try await value(SyncSettingKey.completedAtField) ?? defaults.completedAt,
            due: try await value(SyncSettingKey.dueField) ?? defaults.due,
            priority: try await value(SyncSettingKey.priorityField) ?? defaults.priority,
            tags: try await value(SyncSettingKey.tagsField) ?? defaults.tags,
            note: try await value(SyncSettingKey.noteField) ?? defaults.note,
            recurrence: try await value(SyncSettingKey.repeatField) ?? defaults.recurrence
        )
        if let page = try await value(SyncSettingKey.pageParam), let size = try await value(SyncSettingKey.pageSizeParam) {
            let first = try await value(SyncSettingKey.firstPage).flatMap { Int($0) } ?? 1
            settings.paging = ListPaging(pageParam: page, sizeParam: size, firstPage: first)
        }
        return settings
    }

    /// Remembers the field names and the paging (the server is remembered by
    /// the sync itself, with its history), in one transaction.
    public func save(to store: any SyncStore) async throws {
        try await store.setSyncSettings([
            SyncSettingKey.titleField: names.title,
            SyncSettingKey.completedField: names.completed,
            SyncSettingKey.createdAtField: names.createdAt,
            SyncSettingKey.updatedAtField: names.updatedAt,
            SyncSettingKey.completedAtField: names.completedAt,
            SyncSettingKey.dueField: names.due,
            SyncSettingKey.priorityField: names.priority,
            SyncSettingKey.tagsField: names.tags,
            SyncSettingKey.noteField: names.note,
            SyncSettingKey.repeatField: names.recurrence,
            SyncSettingKey.pageParam: paging?.pageParam,
            SyncSettingKey.pageSizeParam: paging?.sizeParam,
            SyncSettingKey.firstPage: paging.map { String($0.firstPage) },
        ])
    }

    /// Records, before a sync to a CalDAV list stores anything it read, that
    /// it has not finished. A `sync-collection` from the token before it may
    /// leave out a task it pulled that was deleted since (RFC 6578 lets a
    /// server omit what was created and deleted after a token), so until a
    /// sync finishes, the next one reads the whole list instead.
    static func markUnfinished(in store: any SyncStore) async throws {
        try await store.setSyncSettings([SyncSettingKey.unfinished: "1"])
    }

    /// Records a sync that ended: with this server and kind, read up to
    /// `cursor` (todo-server's feed, a CalDAV list's sync token), leaving the bases holding exactly the list of
    /// `digest` (a json-server-style server, nil if not known), in one transaction.
    static func recordSync(
        to store: any SyncStore, server: String, kind: ServerKind, cursor: String?, digest: ListDigest?, at time: Date, summary: String
    ) async throws {
        var values: [String: String?] = [
            SyncSettingKey.server: server,
            SyncSettingKey.kind: kind.rawValue,
            SyncSettingKey.lastSyncAt: ISO8601.string(from: time),
            SyncSettingKey.lastSummary: summary,
            SyncSettingKey.listDigest: digest?.text,
            SyncSettingKey.unfinished: nil,
        ]
        if kind != .jsonServer { values[SyncSettingKey.cursor] = cursor }
        try await store.setSyncSettings(values)
    }
}

/// Names of the settings sync keeps in the database, read and written only by `SyncSettings`.
enum SyncSettingKey {
    static let server = "sync.server"
    static let kind = "sync.kind"
    static let cursor = "sync.cursor"
    static let titleField = "sync.titleField"
    static let completedField = "sync.completedField"
    static let lastSyncAt = "sync.lastSyncAt"
    static let lastSummary = "sync.lastSummary"
    static let listDigest = "sync.listDigest"
    static let createdAtField = "sync.createdAtField"
    static let updatedAtField = "sync.updatedAtField"
    static let completedAtField = "sync.completedAtField"
    static let dueField = "sync.dueField"
    static let priorityField = "sync.priorityField"
    static let tagsField = "sync.tagsField"
    static let noteField = "sync.noteField"
    static let repeatField = "sync.repeatField"
    static let pageParam = "sync.pageParam"
    static let pageSizeParam = "sync.pageSizeParam"
    static let firstPage = "sync.firstPage"
    static let unfinished = "sync.unfinished"
}
