import Foundation
import GRDB
import TodoCore

extension StorageError {
    /// Translates an error from GRDB or SQLite into one a person can act on.
    init(_ error: any Error, path: String) {
        if let error = error as? StorageError {
            self = error
            return
        }
        guard let error = error as? DatabaseError else {
            self = .sqlite(String(describing: error))
            return
        }
        switch error.resultCode {
        case .SQLITE_CORRUPT:
            self = .damaged(path: path)
        case .SQLITE_NOTADB:
            // SQLite's own header, on a file SQLite cannot read: cut short or overwritten.
            self = Self.startsLikeSQLite(path) ? .damaged(path: path) : .notADatabase(path: path)
        case .SQLITE_IOERR where error.extendedResultCode == .SQLITE_IOERR_SHORT_READ:
            self = .damaged(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self = .busy(path: path)
        case .SQLITE_READONLY:
            self = .readOnly(at: path)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            self = .cannotOpen(path: path, reason: error.message ?? "permission denied")
        default:
            self = .sqlite(error.message ?? error.description)
        }
    }

    /// Whether the file at `path` begins with the header every SQLite database has.
    static func startsLikeSQLite(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        return (try? file.read(upToCount: 16)) == Data("SQLite format 3\0".utf8)
    }

    /// A write refused because the database at `path` cannot be written:
    /// its folder is read-only, or else the file is.
    static func readOnly(at path: String) -> StorageError {
        let directory = (path as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? "." : directory
        return access(folder, W_OK) == 0 ? .readOnly(path: path) : .readOnlyFolder(path: path, folder: folder)
    }

    /// Runs `body`, translating any failure at this boundary: no GRDB error
    /// leaves the storage module. Todo errors (an unknown ID…) pass through.
    package static func wrap<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as TodoError {
            throw error
        } catch {
            throw StorageError(error, path: path)
        }
    }

    /// `wrap` for an asynchronous access; a cancelled task's
    /// `CancellationError` passes through as it is.
    package static func wrap<T>(path: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as TodoError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw StorageError(error, path: path)
        }
    }
}
