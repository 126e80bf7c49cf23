import ArgumentParser
import Foundation
import Logging
import TodoServer

/// `todo-server user …`: accounts and their tokens.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Manage accounts and their tokens.",
        discussion: """
            Once an account exists, todo-server (running ones too) requires a token of one on \
            every request and shows each account its own todos only. A token is printed once, \
            when it is made: the server keeps only its hash.
            """,
        subcommands: [Add.self, Token.self, List.self, Revoke.self, Remove.self]
    )
}

/// `--database`, as the server takes it.
struct DatabaseOption: ParsableArguments {
    @Option(
        help: """
            The SQLite database file, or postgres://USER@HOST:PORT/DB for PostgreSQL \
            (default: $TODO_SERVER_DATABASE, else $XDG_DATA_HOME/todo/todo-server.sqlite).
            """
    )
    var database: String?

    /// Where the data lives: `--database`, else `TODO_SERVER_DATABASE`, else the default file.
    func resolve() throws -> ServerDatabaseLocation {
        try ServerDatabaseLocation.resolve(explicit: database)
    }

    /// Runs `body` on the accounts of the database, opened and migrated.
    func withAccounts<T: Sendable>(_ body: @Sendable (any AccountStore) async throws -> T) async throws -> T {
        let location = try resolve()
        switch location {
        case .sqlite(let path):
            let accounts: SQLiteAccountStore
            do {
                accounts = try SQLiteAccountStore.open(path: path)
            } catch {
                throw ValidationError("Cannot open the database \(path): \(error)")
            }
            return try await body(accounts)
        case .postgres(let postgres):
            // A command that does one thing and exits: the pool says only what goes wrong.
            var logger = Logger(label: "todo-server.postgres")
            logger.logLevel = .error
            let database = PostgresDatabase(postgres, logger: logger)
            return try await database.whileRunning {
                try await database.migrate()
                return try await body(PostgresAccountStore(database))
            }
        }
    }
}

extension UserCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an account and print its first token.")

        @Argument(help: "The account's name: letters, digits, '.', '_', '-' or '@'.")
        var name: String

        @Option(name: .customLong("name"), help: "A label for the token, to tell it from the account's others.")
        var label = "default"

        @Option(help: "Days until the token expires (default: never).")
        var expires: Int?

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let (name, label, expires) = (name, label, expires)
            let (first, token) = try await database.withAccounts { accounts in
                let first = try await !accounts.hasAccounts()
                return (first, try await accounts.addAccount(name: name, tokenLabel: label, expiresInDays: expires))
            }
            print(token)
            var notes = "Account \(name) created; its token (\(label)) is above and will not be shown again."
            if first {
                notes += " From now on todo-server requires an account's token on every request, running servers included."
            }
            FileHandle.standardError.write(Data((notes + "\n").utf8))
        }
    }

    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Issue another token to an account and print it.")

        @Argument(help: "The account's name.")
        var account: String

        @Option(name: .customLong("name"), help: "A label for the token, unique within the account.")
        var label: String

        @Option(help: "Days until the token expires (default: never).")
        var expires: Int?

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let (account, label, expires) = (account, label, expires)
            let token = try await database.withAccounts { try await $0.issueToken(account: account, label: label, expiresInDays: expires) }
            print(token)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the accounts with their tokens' labels, creation and last use.")

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let accounts = try await database.withAccounts { try await $0.accounts() }
            if accounts.isEmpty {
                print("No accounts: the server serves one list. Create one with `todo-server user add NAME`.")
            }
            for account in accounts {
                print("\(account.name)  created \(Self.format(account.createdAt))")
                if account.tokens.isEmpty {
                    print("  (no tokens)")
                }
                for token in account.tokens {
                    var line = "  \(token.label)  created \(Self.format(token.createdAt))"
                    line += "  last used \(token.lastUsedAt.map(Self.format) ?? "never")"
                    if let expiresAt = token.expiresAt {
                        line += "  \(expiresAt <= Date() ? "expired" : "expires") \(Self.format(expiresAt))"
                    }
                    print(line)
                }
            }
        }

        static func format(_ date: Date) -> String {
            ISO8601DateFormatter().string(from: date)
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke one token of an account, or all of them.")

        @Argument(help: "The account's name.")
        var account: String

        @Argument(help: "The token's label; without it, every token of the account.")
        var label: String?

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let (account, label) = (account, label)
            let count = try await database.withAccounts { try await $0.revokeTokens(account: account, label: label) }
            print("Revoked \(count) token\(count == 1 ? "" : "s") of \(account).")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an account with its todos and tokens.")

        @Argument(help: "The account's name.")
        var account: String

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let account = account
            try await database.withAccounts { try await $0.removeAccount(name: account) }
            print("Removed \(account), its todos and its tokens.")
        }
    }
}
