import Foundation
import TodoSync

/// `todo sync --caldav-lists URL --user NAME`: the account's calendars on a
/// CalDAV server (Nextcloud, Radicale, Baïkal, Fastmail, iCloud, todo-server),
/// task lists first, each with the address that names it. The password comes
/// from `TODO_PASSWORD`, else the one remembered for that server, else a
/// prompt on the terminal; once the server has taken it, it is remembered
/// for that server beside the tokens (a file only the user can read), never
/// in the database, never printed.
struct CalDAVLists {
    let given: String
    let user: String?
    let environment: [String: String]

    func run() async throws {
        let url = try CalDAVDiscovery.serverURL(given)
        let origin = CalDAVDiscovery.origin(of: url)
        let credentials = Credentials.standard(environment: environment)
        let remembered = credentials.login(for: origin)
        guard let user = user ?? remembered?.user else {
            throw CalDAVListsProblem("--user NAME is needed: the account's name on \(origin) (it is remembered after it works)")
        }
        let password = try environment["TODO_PASSWORD"] ?? (remembered?.user == user ? remembered?.password : nil) ?? Self.ask(user: user, at: origin)
        let login = CalDAVLogin(user: user, password: password)
        let collections = try await CalDAVDiscovery(login: login).collections(at: given)
        try credentials.remember(login, for: origin)
        let lists = collections.filter(\.holdsTasks)
        let events = collections.filter { !$0.holdsTasks }
        if lists.isEmpty {
            print("\(user) has no task list at \(origin)" + (events.isEmpty ? "." : ", only calendars of events: " + events.map(\.name).joined(separator: ", ") + "."))
            return
        }
        print("Task lists of \(user) at \(origin):")
        let width = lists.map(\.name.count).max() ?? 0
        for list in lists {
            print("  " + list.name + String(repeating: " ", count: width - list.name.count) + "  caldav+" + list.url)
        }
        if !events.isEmpty {
            print("Calendars of events only, not task lists: " + events.map(\.name).joined(separator: ", "))
        }
    }

    /// The password, typed on the terminal without echo.
    static func ask(user: String, at origin: String) throws -> String {
        guard isatty(STDIN_FILENO) == 1, let typed = getpass("Password for \(user) at \(origin): ") else {
            throw SyncError.noPassword(user: user)
        }
        return String(cString: typed)
    }
}

/// A usage mistake of `--caldav-lists`, said in one line.
struct CalDAVListsProblem: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
