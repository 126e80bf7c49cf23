import Hummingbird
import NIOCore

/// What the server knows about a request beyond the request itself: who sent
/// it (the address, for throttling failed authentications) and which
/// account it acts for (set by the token check).
public struct TodoRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// `AccountID.single` unless an account's token said otherwise.
    public var account = AccountID.single
    /// The client's IP address, or nil where there is no socket (router tests).
    public let remoteAddress: String?
    /// `GET /todos/:id`'s todo, when the token check read it too.
    public var prefetchedTodo: PrefetchedTodo?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }
}

/// A todo read by the statement that checked the request's token
/// (`AuthenticatingTodoReader`), for the account the request acts for:
/// `GET /todos/:id` answers with it instead of reading `id` again.
public struct PrefetchedTodo: Sendable {
    public let id: String
    /// The live todo, or nil when there is none.
    public let todo: StoredTodo?
}
