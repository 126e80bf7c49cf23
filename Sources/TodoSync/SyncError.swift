/// Why a sync stopped, worded for the person at the terminal: what happened,
/// what was kept safe, and what to do.
public enum SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    case noServer
    case invalidServerURL(String)
    case unreachable(request: String, cause: String)
    case httpStatus(request: String, status: Int, body: String)
    case unauthorized(request: String)
    case malformed(request: String, reason: String)
    case suspiciousEmptyList(lastSeen: Int)
    case wouldDeleteEverything(count: Int)
    case missingId(request: String)
    case cursorExpired
    case incomplete(reason: String)
    case busy(lockPath: String)
    case serverChanged(from: String, to: String)

    static let kept = "nothing was deleted here and your changes stay queued"

    public var description: String {
        switch self {
        case .noServer:
            "no server to sync with: run todo sync --server http://HOST:PORT once (it is remembered), or set TODO_SERVER"
        case let .invalidServerURL(url):
            "'\(url)' is not a server URL: give the base, like http://127.0.0.1:3000"
        case let .unreachable(request, cause):
            "cannot reach the server for \(request): \(cause), even after retrying; \(Self.kept); check the server runs and the URL is right, then run todo sync again"
        case let .httpStatus(request, status, body):
            "the server answered \(status) to \(request)\(body.isEmpty ? "" : " (\(body))"); \(Self.kept); run todo sync again later"
        case let .unauthorized(request):
            "the server refused \(request) without a valid token: pass --token TOKEN or set TODO_TOKEN"
        case let .malformed(request, reason):
            "the server's answer to \(request) could not be read (\(reason)); \(Self.kept); check --server points at the JSON server"
        case let .suspiciousEmptyList(lastSeen):
            "the server returned no todos, but the last sync saw \(lastSeen): \(Self.kept); if the server really was emptied, run todo sync --force"
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
        case let .busy(lockPath):
            "another todo sync is running on this database (lock \(lockPath)): wait for it to finish, then run todo sync again"
        }
    }
}
