import ArgumentParser
import Foundation
import TodoCore
import TodoSync

// Lists people share (`todo share`, `shares`, `unshare`, `join`, `leave`):
// each asks the todo-server this database syncs with, for the account
// whose token the sync uses. A list is a todo's top-level project.

/// The server and token a sharing command asks: as `todo sync` finds them.
struct SharingServerOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("The todo-server's base URL (default: $TODO_SERVER, else the one todo sync last used).", valueName: "url"))
    var server: String?

    @Option(help: ArgumentHelp("Your account's token (default: $TODO_TOKEN, else the one remembered for the server).", valueName: "token"))
    var token: String?

    /// The sharing routes of the server the database syncs with.
    func sharing() async throws -> ListSharing {
        let db = try database.openForSync(reading: true)
        let setup = SyncSetup(environment: ProcessInfo.processInfo.environment, server: server, token: token)
        return try ListSharing(configuration: try await setup.resolve(store: SQLiteSyncStore(db)).configuration)
    }
}

struct ShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share one of your lists with another account on the server.",
        discussion: """
            A list is a top-level project: shopping holds the todos of shopping and \
            shopping.weekly; inbox holds those with no project. The other account is \
            invited: it joins with todo join LIST --from YOU. --read-only lets it read \
            the list and not change it. todo unshare ends it.

            Examples:
              todo share shopping --with dad
              todo share garden --with gran --read-only
            """
    )

    @Argument(help: ArgumentHelp("The list: a project's first part, such as shopping.", valueName: "list"))
    var list: String

    @Option(help: ArgumentHelp("The account to share it with.", valueName: "account"))
    var with: String

    @Flag(help: "Let it read the list, not change it.")
    var readOnly = false

    @OptionGroup var options: SharingServerOptions

    mutating func run() async throws {
        let list = try ListName.validated(self.list)
        let me = try await options.sharing().share(list, with: with, readOnly: readOnly)
        print("Shared \(list) with \(with)\(readOnly ? ", read-only" : ""): \(with) joins it with todo join \(list) --from \(me)")
    }
}

struct UnshareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unshare",
        abstract: "Stop sharing one of your lists with an account.",
        discussion: """
            The list and its todos stay yours; the account no longer reaches them.

            Examples:
              todo unshare shopping --with dad
            """
    )

    @Argument(help: ArgumentHelp("The list.", valueName: "list"))
    var list: String

    @Option(help: ArgumentHelp("The account it is shared with.", valueName: "account"))
    var with: String

    @OptionGroup var options: SharingServerOptions

    mutating func run() async throws {
        let list = try ListName.validated(self.list)
        try await options.sharing().unshare(list, with: with)
        print("\(list) is no longer shared with \(with)")
    }
}

struct SharesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shares",
        abstract: "List what you share with whom, and the lists shared with you.",
        discussion: """
            Shows each list you share with its members and their roles, and each list \
            shared with you: joined (under the name you joined it as) or waiting for \
            todo join.

            Examples:
              todo shares
            """
    )

    @OptionGroup var options: SharingServerOptions

    mutating func run() async throws {
        let summary = try await options.sharing().shares()
        print(Self.lines(summary).joined(separator: "\n"))
    }

    /// The summary as the command prints it.
    static func lines(_ summary: ShareSummary) -> [String] {
        var lines: [String] = []
        if summary.shared.isEmpty {
            lines.append("You share no list: todo share LIST --with ACCOUNT shares one")
        } else {
            lines.append("Shared by you (\(summary.account)):")
            let byList = Dictionary(grouping: summary.shared, by: \.list)
            for list in byList.keys.sorted() {
                let members = byList[list, default: []].map { "\($0.member) (\($0.role), \($0.joined ? "joined" : "invited"))" }
                lines.append("  \(list): " + members.joined(separator: ", "))
            }
        }
        if summary.sharedWithMe.isEmpty {
            lines.append("No list is shared with you")
        } else {
            lines.append("Shared with you:")
            for share in summary.sharedWithMe {
                let state = share.joinedAs.map { "joined as \($0)" } ?? "invited: todo join \(share.list) --from \(share.owner)"
                lines.append("  \(share.list) from \(share.owner) (\(share.role)), \(state)")
            }
        }
        return lines
    }
}

struct JoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join a list another account shared with you.",
        discussion: """
            The list is joined under its own name, or under --as NAME: needed when you \
            have a list of that name already (todo shares lists the invitations).

            Examples:
              todo join shopping --from mum
              todo join shopping --from mum --as family-shopping
            """
    )

    @Argument(help: ArgumentHelp("The list, as its owner names it.", valueName: "list"))
    var list: String

    @Option(help: ArgumentHelp("The account that shared it.", valueName: "account"))
    var from: String

    @Option(name: .customLong("as"), help: ArgumentHelp("The name it goes by here (default: its own).", valueName: "name"))
    var name: String?

    @OptionGroup var options: SharingServerOptions

    mutating func run() async throws {
        let list = try ListName.validated(self.list)
        let name = try name.map { try ListName.validated($0) } ?? list
        // A list of mine by that name would meet it here: a name of its own, then.
        let mine = Set(try options.database.openForReading().pendingProjectCounts(now: Date(), timeZone: .current).keys.map { ListName.of(project: $0) })
        if mine.contains(name) {
            throw CommandLineError(description: "you have a list named \(name) already: join \(from)'s under another name, e.g. todo join \(list) --from \(from) --as \(from)-\(list)")
        }
        try await options.sharing().join(list, from: from, as: name)
        print("Joined \(from)'s \(list)" + (name == list ? "" : " as \(name)"))
    }
}

struct LeaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave",
        abstract: "Leave a list shared with you.",
        discussion: """
            Names the list as you joined it. Its owner can share it with you again.

            Examples:
              todo leave shopping
            """
    )

    @Argument(help: ArgumentHelp("The list, by the name you joined it as.", valueName: "list"))
    var list: String

    @OptionGroup var options: SharingServerOptions

    mutating func run() async throws {
        let list = try ListName.validated(self.list)
        try await options.sharing().leave(list)
        print("Left \(list)")
    }
}
