import ArgumentParser
import Foundation
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
    @Option(help: "The SQLite database file (default: $XDG_DATA_HOME/todo/todo-server.sqlite).")
    var database: String?

    /// The accounts of the database, opened and migrated.
    func openAccounts() throws -> SQLiteAccountStore {
        let path = ServerDatabaseLocation.resolve(explicit: database)
        do {
            return try SQLiteAccountStore.open(path: path)
        } catch {
            throw ValidationError("Cannot open the database \(path): \(error)")
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
            let accounts = try database.openAccounts()
            let first = try await !accounts.hasAccounts()
            let token = try await accounts.addAccount(name: name, tokenLabel: label, expiresInDays: expires)
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
            let token = try await database.openAccounts().issueToken(account: account, label: label, expiresInDays: expires)
            print(token)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the accounts with their tokens' labels, creation and last use.")

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let accounts = try await database.openAccounts().accounts()
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
            let count = try await database.openAccounts().revokeTokens(account: account, label: label)
            print("Revoked \(count) token\(count == 1 ? "" : "s") of \(account).")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an account with its todos and tokens.")

        @Argument(help: "The account's name.")
        var account: String

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            try await database.openAccounts().removeAccount(name: account)
            print("Removed \(account), its todos and its tokens.")
        }
    }
}
