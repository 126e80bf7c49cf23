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
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            self = .notADatabase(path: path)
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
