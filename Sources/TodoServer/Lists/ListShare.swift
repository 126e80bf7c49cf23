import Foundation
import TodoCore

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

/// A list a request names in its path (`/lists/OWNER/LIST/todos`), before
/// anyone has checked that the requester may see it.
public struct ListAddress: Sendable, Equatable {
    /// The owner's account name.
    public var owner: String
    public var list: String

    public init(owner: String, list: String) {
        self.owner = owner
        self.list = list
    }

    /// The list `path` names, if it is a list's route.
    static func of(path: String) -> ListAddress? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].isEmpty, parts[1] == "lists",
              let owner = parts[2].removingPercentEncoding, let list = parts[3].removingPercentEncoding,
              !owner.isEmpty, !list.isEmpty
        else { return nil }
        return ListAddress(owner: owner, list: list)
    }
}

/// What the requester may do with the list its path names: found by the
/// token check's own query, so a list's routes cost no second round trip.
public struct ListAccess: Sendable, Equatable {
    /// The account whose todos the list holds.
    public var owner: AccountID
    public var ownerName: String
    public var list: String
    /// The requester's role; nil when the requester is the owner.
    public var role: ListRole?

    public init(owner: AccountID, ownerName: String, list: String, role: ListRole?) {
        self.owner = owner
        self.ownerName = ownerName
        self.list = list
        self.role = role
    }

    /// Whether the requester may write the list's todos.
    public var mayWrite: Bool { role != .viewer }
}

extension ListAccess {
    /// What a query found of `address`: the owner's id (nil: no such
    /// account) and the member's role in its share (nil: none joined).
    static func found(_ address: ListAddress, owner: Int64?, member: Int64?, role: String?) -> ListAccess? {
        guard let owner, let member, (try? ListName.validated(address.list)) == address.list else { return nil }
        if owner == member { return ListAccess(owner: AccountID(owner), ownerName: address.owner, list: address.list, role: nil) }
        guard let role = role.flatMap(ListRole.init(rawValue:)) else { return nil }
        return ListAccess(owner: AccountID(owner), ownerName: address.owner, list: address.list, role: role)
    }
}
