import Hummingbird
import NIOCore

/// What the server knows about a request beyond the request itself: who sent
/// it (the address, for throttling failed authentications) and which
/// account it acts for (set by the token check).
public struct TodoRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// `AccountID.single` unless an account's token said otherwise.
    public var account = AccountID.single
    /// The account's name, when Basic credentials gave it (CalDAV).
    public var accountName: String?
    /// On a list's route (`/lists/OWNER/LIST/…`), what the account may do
    /// with that list: nil when it is neither its owner nor a member.
    public var list: ListAccess?
    /// The client's IP address, or nil where there is no socket (router tests).
    public let remoteAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }
}
