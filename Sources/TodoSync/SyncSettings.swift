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
        settings.names = FieldNames(
            title: try await value(SyncSettingKey.titleField) ?? defaults.title,
            completed: try await value(SyncSettingKey.completedField) ?? defaults.completed,
            createdAt: try await value(SyncSettingKey.createdAtField) ?? defaults.createdAt,
            updatedAt: try await value(SyncSettingKey.updatedAtField) ?? defaults.updatedAt,
            completedAt: try await value(SyncSettingKey.completedAtField) ?? defaults.completedAt
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
            SyncSettingKey.pageParam: paging?.pageParam,
            SyncSettingKey.pageSizeParam: paging?.sizeParam,
            SyncSettingKey.firstPage: paging.map { String($0.firstPage) },
        ])
    }
}
