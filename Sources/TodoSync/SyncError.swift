import Foundation
import TodoCore

/// Why a sync stopped, worded for the person at the terminal: what happened,
/// what was kept safe, and what to do.
public enum SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    case noServer
    case invalidServerURL(String)
    /// No answer from the server; `queued` local changes stay queued.
    case unreachable(server: String, request: String, kind: TransportError.Kind, queued: Int?)
    case httpStatus(request: String, status: Int, body: String)
    case unauthorized(request: String)
    /// A token that worked could not be written down for next time.
    case cannotRememberToken(path: String)
    case malformed(request: String, reason: String)
    case suspiciousEmptyList(lastSeen: Int)
    case wouldDeleteEverything(count: Int)
    /// More than half of the synced todos (and more than a few) would be deleted here.
    case wouldDeleteMany(count: Int, synced: Int, examples: [String])
    /// Todos the list left out still exist on the server: the list is partial.
    case partialList(leftOut: Int, examples: [String])
    /// The server announced more todos than its list gave.
    case listShorterThanTotal(listed: Int, total: Int)
    /// The server said there is a next page, but not how to ask for it.
    case unknownPaging(request: String)
    case missingId(request: String)
    case cursorExpired
    case incomplete(reason: String)
    case busy(lockPath: String)
    case serverChanged(from: String, to: String)
    /// A URL where no CalDAV server answers as one should (a web page, a JSON server).
    case notCalDAV(url: String, reason: String)
    /// A CalDAV server refused the account's name and password.
    case wrongLogin(url: String, user: String)
    /// A CalDAV address that answers, but is not one task list.
    case notTaskList(url: String, reason: String)
    /// A CalDAV server asked for a password, and there is no way to ask for one.
    case noPassword(user: String)
    /// A CalDAV server named with no account given or remembered for it.
    case noUser(server: String)
    /// An option the server this sync goes to does not take.
    case notForServer(option: String, server: String, use: String)

    static let kept = "nothing was deleted here and your changes stay queued"

    public var description: String {
        switch self {
        case .noServer:
            "no server to sync with: run todo sync --server http://HOST:PORT once (it is remembered), or set TODO_SERVER"
        case let .invalidServerURL(url):
            "'\(url)' is not a server URL: give the base, like http://127.0.0.1:3000"
        case let .unreachable(server, request, kind, queued):
            "cannot reach \(server) for \(request) (\(kind.explanation))\(kind.isOffline ? "" : ", even after retrying"); "
                + (queued.map { "\($0) local change\($0 == 1 ? "" : "s") stay\($0 == 1 ? "s" : "") queued and nothing was deleted" } ?? Self.kept)
                + "; \(kind.isOffline ? "start the server or check --server" : "check the server"), then run todo sync again"
        case let .httpStatus(request, status, body):
            "the server answered \(status) to \(request)\(body.isEmpty ? "" : " (\(body))"); \(Self.kept); run todo sync again later"
        case let .unauthorized(request):
            "the server refused \(request) without a valid token: pass --token TOKEN (it is remembered for this server) or set TODO_TOKEN"
        case let .cannotRememberToken(path):
            "the sync worked, but its token could not be remembered in \(path): make that folder writable, or pass --token again next time"
        case let .malformed(request, reason):
            "the server's answer to \(request) could not be read (\(reason)); \(Self.kept); check --server points at the JSON server"
        case let .suspiciousEmptyList(lastSeen):
            "the server returned no todos, but the last sync saw \(lastSeen): \(Self.kept); if the server really was emptied, run todo sync --force"
        case let .wouldDeleteMany(count, synced, examples):
            "this sync would delete \(count) of the \(synced) synced todos here (\(HeldDeletions.quoted(examples, of: count))): nothing was changed; check the server's list, and run todo sync --force if that is what you want"
        case let .partialList(leftOut, examples):
            "the server's list left out \(leftOut) todo\(leftOut == 1 ? "" : "s") that still exist\(leftOut == 1 ? "s" : "") on it (\(HeldDeletions.quoted(examples, of: leftOut))): it seems to page its lists; nothing was deleted or changed; name its paging with todo sync --page-param NAME --page-size-param NAME (see todo sync --help)"
        case let .listShorterThanTotal(listed, total):
            "the server says it holds \(total) todos but its list gave \(listed): it seems to page its lists without saying how; nothing was changed; name its paging with todo sync --page-param NAME --page-size-param NAME (see todo sync --help)"
        case let .unknownPaging(request):
            "the server's answer to \(request) has a next page but does not say how to ask for it: nothing was changed; name its paging with todo sync --page-param NAME --page-size-param NAME (see todo sync --help)"
        case let .wouldDeleteEverything(count):
            "this sync would delete all \(count) synced todos here: nothing was changed; run todo sync --force if that is what you want"
        case let .missingId(request):
            "the server's answer to \(request) had no id: it cannot be synced with; check --server points at a json-server-style server"
        case .cursorExpired:
            "the server no longer remembers the last sync's position: run todo sync again to resync in full"
        case let .incomplete(reason):
            "the sync did not finish (\(reason)): nothing is lost; run todo sync again"
        case let .serverChanged(old, new):
            "this database was synced with \(old), not \(new): nothing was changed; to move to the new server, copy your todos to a fresh database (todo export > todos.json, then todo import todos.json --database NEW_FILE) and sync that"
        case let .notCalDAV(url, reason):
            "\(url) is not a CalDAV server's address (\(reason)): give the address your phone or mail app uses for its tasks, like https://HOST/ or https://HOST/remote.php/dav/"
        case let .notTaskList(url, reason):
            "\(url) is not a task list (\(reason)): todo sync --caldav-lists \(URL(string: url).map(CalDAVDiscovery.origin(of:)) ?? "URL")/ --user NAME lists the account's task lists; give one of the caldav+ addresses it prints to --server"
        case let .wrongLogin(url, user):
            "\(url) refused the name \(user) and its password (401): check --user and the password (TODO_PASSWORD), or an app password if the server asks for one"
        case let .notForServer(option, server, use):
            "\(option) is not for \(server): this kind of server takes \(use); nothing was synced"
        case let .noUser(server):
            "\(server) needs an account: add --user NAME (the password comes from TODO_PASSWORD, or is asked for); both are remembered for that server after a sync that works"
        case let .noPassword(user):
            "a password is needed for \(user), and there is no terminal to ask on: set TODO_PASSWORD"
        case let .busy(lockPath):
            "another todo sync is running on this database (lock \(lockPath)): wait for it to finish, then run todo sync again"
        }
    }
}

extension SyncError {
    /// The deletions the safety rail stopped, where it was the rail that stopped this sync.
    public var heldDeletions: HeldDeletions? {
        switch self {
        case let .wouldDeleteMany(count, synced, examples): HeldDeletions(.many, count: count, synced: synced, examples: examples)
        case let .wouldDeleteEverything(count): HeldDeletions(.everything, count: count, synced: count)
        case let .suspiciousEmptyList(lastSeen): HeldDeletions(.emptyList, count: lastSeen, synced: lastSeen)
        default: nil
        }
    }
}

extension SyncError: TodoErrorConvertible {
    /// An unreachable server is the one failure a script may want to tell apart.
    public var todoError: TodoError {
        if case .unreachable = self { .unavailable(description) } else { .failed(description) }
    }
}
