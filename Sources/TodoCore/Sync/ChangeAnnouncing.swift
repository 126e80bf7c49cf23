/// A server's word that its todos changed, so a live view syncs at once
/// instead of asking every so often. The core listens through this
/// protocol, so it never sees HTTP (todo-server's `GET /todos/events`).
public protocol ChangeAnnouncing: Sendable {
    /// The announcements of one connection, `.listening` first, until it
    /// ends (throwing why). Each connection resumes where the last one's
    /// announcements left off: a change made while none was open is
    /// announced once it is. A server that announces nothing throws
    /// `ChangeAnnouncementsUnavailable` at once: it is polled instead.
    func announcements() -> AsyncThrowingStream<ChangeAnnouncement, any Error>
}

public enum ChangeAnnouncement: Sendable, Equatable {
    /// Connected: changes made from now on will be announced.
    case listening
    /// The server's todos changed (to the feed position `cursor`).
    case changed(cursor: String)
    /// The server cannot say what changed since this client last heard: sync.
    case resync
}

/// The server answered, and it does not announce changes.
public struct ChangeAnnouncementsUnavailable: Error, Sendable, Equatable {
    public init() {}
}

/// How a live view's syncing goes, for its header.
public enum LiveSyncStatus: Sendable, Equatable {
    /// Connecting (again) to the server's announcements.
    case connecting
    /// Told of every change the moment it is made.
    case live
    /// Asking every so often: the server does not announce changes.
    case polling
    /// The server cannot be reached; tried again by itself.
    case offline
    /// The last sync failed for another reason (the state's `error` says
    /// which); tried again by itself.
    case failing
}
