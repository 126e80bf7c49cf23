import Hummingbird
import TodoCore

/// Who shares which list with whom, kept beside the accounts, so that every
/// server on the database agrees. Each method acts for one account and
/// throws a `ServerError` (`ShareRefusal`) saying what to do.
public protocol ShareStore: Sendable {
    /// Invites `member` to `owner`'s `list`: 404 for no such account, 409
    /// when it is shared with them already, 403 for a list shared with
    /// `owner` (only its owner shares it), 400 for oneself or a bad name.
    func share(list: String, of owner: AccountID, with member: String, role: ListRole) async throws
    /// Ends a share, joined or waiting: 404 when there is none.
    func unshare(list: String, of owner: AccountID, with member: String) async throws
    /// Accepts `owner`'s invitation to `list` under the name `name`: 404
    /// with no invitation, 409 when joined already or `name` is the name of
    /// another list joined.
    func join(list: String, from owner: String, as name: String, member: AccountID) async throws
    /// Leaves the list joined as `name`: 404 when none is.
    func leave(_ name: String, member: AccountID) async throws
    /// What `account` shares and what is shared with it.
    func shares(of account: AccountID) async throws -> ListShares
}

/// Why a share, join or leave is refused, as the server answers it.
enum ShareRefusal {
    static func badList(_ name: String) -> ServerError {
        ServerError(.badRequest, TodoFieldError.badList(name).description + ".")
    }

    static func noSuchAccount(_ name: String) -> ServerError {
        ServerError(.notFound, "No account is named \(name); ask them for the name they sign in with.")
    }

    static func withOneself(_ list: String) -> ServerError {
        ServerError(.badRequest, "\(list) is your own list: share it with another account.")
    }

    static func notTheOwner(_ list: String, owner: String) -> ServerError {
        ServerError(.forbidden, "\(list) is \(owner)'s list, shared with you: only its owner shares it.")
    }

    static func sharedAlready(_ list: String, with member: String) -> ServerError {
        ServerError(.conflict, "\(list) is already shared with \(member); unshare it first to change the role.")
    }

    static func notShared(_ list: String, with member: String) -> ServerError {
        ServerError(.notFound, "\(list) is not shared with \(member); GET /shares lists what you share.")
    }

    static func noInvitation(_ list: String, from owner: String) -> ServerError {
        ServerError(.notFound, "\(owner) has not shared a list \(list) with you; GET /shares lists the lists shared with you.")
    }

    static func joinedAlready(_ list: String, from owner: String, as name: String) -> ServerError {
        ServerError(.conflict, "You joined \(owner)'s \(list) already, as \(name).")
    }

    static func nameTaken(_ name: String) -> ServerError {
        ServerError(.conflict, "You joined another list as \(name) already: join this one under another name.")
    }

    static func notJoined(_ name: String) -> ServerError {
        ServerError(.notFound, "You have joined no list named \(name); GET /shares lists the lists shared with you.")
    }

    /// A list's route whose requester is neither its owner nor a member who
    /// joined: the same 404 whether the list, its owner or the share is missing.
    static func notAMember(_ address: ListAddress?) -> ServerError {
        guard let address else { return ServerError(.notFound, "This server has no such list.") }
        return ServerError(
            .notFound,
            "No list \(address.list) of \(address.owner) is shared with you; GET /shares lists the lists shared with you, and PUT /joined/NAME joins one."
        )
    }

    static func readOnly(_ access: ListAccess) -> ServerError {
        ServerError(.forbidden, "\(access.list) is \(access.ownerName)'s list, shared with you read-only: ask \(access.ownerName) to share it with you as an editor.")
    }

    /// A write through a list's route that would put the todo on another list.
    static func leavesList(_ list: String) -> ServerError {
        ServerError(
            HTTPResponse.Status(code: 422, reasonPhrase: "Unprocessable Content"),
            "A todo written on the list \(list) stays on it: its project is \(list) or \(list).SOMETHING"
                + (list == ListName.inbox ? ", or none" : "") + ". To move it to another list, delete it here and create it there."
        )
    }

    static let needsAccounts = ServerError(
        .forbidden, "Lists are shared between accounts, and this server has none: `todo-server user add NAME` makes one."
    )
}
