import PostgresNIO

// MARK: - Errors

extension ServerError {
    /// PostgreSQL cannot be reached, or is starting or stopping.
    static let databaseUnavailable = ServerError(.serviceUnavailable, "The database is unavailable; retry shortly.")

    /// Transactions kept colliding (serialization failures, deadlocks), or a
    /// write kept racing others on the same todo.
    static let databaseBusy = ServerError(.serviceUnavailable, "The database is busy; retry shortly.")
}

extension PostgresDatabase {
    /// The SQLSTATE of a PostgreSQL error, looking inside a transaction's wrapper.
    static func sqlState(of error: any Error) -> String? {
        switch error {
        case let error as PSQLError: error.serverInfo?[.sqlState]
        case let error as PostgresTransactionError:
            (error.closureError ?? error.commitError ?? error.beginError).flatMap(sqlState(of:))
        default: nil
        }
    }

    static func isRetryable(_ error: any Error) -> Bool {
        ["40001", "40P01"].contains(sqlState(of: error))
    }

    /// No PostgresNIO error leaves the repository: each becomes a
    /// `ServerError` (an `AccountError` stays as it is).
    static func serverError(for error: any Error) -> any Error {
        switch error {
        case let error as ServerError:
            return error
        case let error as AccountError:
            return error
        case let error as PostgresTransactionError:
            return serverError(for: error.closureError ?? error.commitError ?? error.beginError ?? ServerError.databaseUnavailable)
        case let error as PSQLError:
            guard let state = error.serverInfo?[.sqlState] else {
                // No answer from the server: the connection failed or closed.
                return ServerError.databaseUnavailable
            }
            let message = error.serverInfo?[.message] ?? state
            switch state {
            case "40001", "40P01":
                return ServerError.databaseBusy
            case _ where state.hasPrefix("08") || state.hasPrefix("57") || state.hasPrefix("53"):
                // Connection lost, server shutting down or starting, out of resources.
                return ServerError.databaseUnavailable
            case _ where state.hasPrefix("22"):
                // A value PostgreSQL cannot hold, such as \u0000 in a string.
                return ServerError.badRequest("The database cannot store this value: \(message).")
            default:
                return ServerError.storage(message)
            }
        default:
            // The pool's own errors: it could not open a connection.
            return ServerError.databaseUnavailable
        }
    }
}
