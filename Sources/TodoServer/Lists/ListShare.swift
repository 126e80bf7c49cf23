/// What a member of a shared list may do with its todos.
public enum ListRole: String, Sendable, Equatable, CaseIterable {
    /// Reads and writes them.
    case editor
    /// Reads them only: every write is 403.
    case viewer
}

/// One list shared by its owner with one member, as the owner sees it.
public struct SharedList: Sendable, Equatable {
    public var list: String
    public var member: String
    public var role: ListRole
    /// Whether the member joined it yet (else the invitation waits).
    public var joined: Bool

    public init(list: String, member: String, role: ListRole, joined: Bool) {
        self.list = list
        self.member = member
        self.role = role
        self.joined = joined
    }
}

/// One list another account shares with this one, as the member sees it.
public struct ListSharedWithMe: Sendable, Equatable {
    public var list: String
    public var owner: String
    public var role: ListRole
    /// The name it is joined under; nil while the invitation waits.
    public var joinedAs: String?

    public init(list: String, owner: String, role: ListRole, joinedAs: String?) {
        self.list = list
        self.owner = owner
        self.role = role
        self.joinedAs = joinedAs
    }
}

/// An account's shares both ways: what it shares, by list and member; and
/// what is shared with it, by owner and list.
public struct ListShares: Sendable, Equatable {
    public var shared: [SharedList]
    public var withMe: [ListSharedWithMe]

    public init(shared: [SharedList], withMe: [ListSharedWithMe]) {
        self.shared = shared
        self.withMe = withMe
    }
}
