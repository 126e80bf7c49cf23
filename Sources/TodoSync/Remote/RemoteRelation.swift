import Foundation

/// A link a CalDAV task holds to another by that one's UID (RFC 5545
/// 3.8.4.5, RFC 9253): `parent` and `dependsOn` name a task this one is
/// under or waits for, `child` a subtask.
public struct RemoteRelation: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case parent, child, dependsOn }

    public var kind: Kind
    public var uid: String

    public init(_ kind: Kind, _ uid: String) {
        self.kind = kind
        self.uid = uid
    }
}
