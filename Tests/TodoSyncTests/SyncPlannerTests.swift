import Foundation
import Testing
import TodoCore
@testable import TodoSync

/// The pure three-way planner: one case per combination of base, local and remote.
struct SyncPlannerTests {
    static let id = UUID(uuidString: "3f2a1b2c-6f0e-4c1a-9d0b-2f1e3c4d5a6b")!
    static let now = Date(timeIntervalSince1970: 1_795_253_400)

    static func fields(_ text: String, _ done: Bool = false) -> SyncFields { SyncFields(text: text, isDone: done) }

    /// `remoteTime` is the edit time a `todo` wrote into the server's item;
    /// `baseTime` the one the last sync saw there.
    static func entry(
        base: SyncFields? = nil, local: SyncFields? = nil, remote: SyncFields? = nil,
        localTime: Double = 0, remoteTime: Double? = nil, baseTime: Double? = nil, serverTime: Double? = nil, rev: Int64? = 1
    ) -> SyncEntry {
        func times(_ seconds: Double?) -> FieldTimes {
            let date = seconds.map(Date.init(timeIntervalSince1970:))
            return date.map { FieldTimes([.text: $0, .done: $0]) } ?? FieldTimes()
        }
        return SyncEntry(
            todoId: id,
            base: base.map { SyncBase(todoId: id, remoteId: "r1", fields: $0, editedAt: times(baseTime)) },
            local: local.map { fields in
                // Edited here at `localTime`, where it differs from the base.
                var item = TodoItem(id: id, text: fields.text, isDone: fields.isDone, createdAt: Date(timeIntervalSince1970: localTime))
                if let base, base.text != fields.text { item.editedAt[.text] = item.createdAt }
                if let base, base.isDone != fields.isDone { item.editedAt[.done] = item.createdAt }
                return item
            },
            remote: remote.map {
                RemoteTodo(id: "r1", fields: $0, updatedAt: serverTime.map(Date.init(timeIntervalSince1970:)), editedAt: times(remoteTime))
            },
            pendingRev: rev
        )
    }

    static func step(_ entry: SyncEntry, prefer: ConflictPreference = .newest) -> SyncStep? {
        SyncPlanner.plan([entry], prefer: prefer, now: now).steps.first
    }

    @Test func addedLocallyIsCreatedOnTheServer() throws {
        let step = try #require(Self.step(Self.entry(local: Self.fields("a"))))
        #expect(step.remote == .create(Self.fields("a")))
        #expect(step.local == .keep)
        #expect(step.base == Self.fields("a"))
    }

    @Test func addedRemotelyIsPulled() throws {
        let step = try #require(Self.step(Self.entry(remote: Self.fields("a", true), rev: nil)))
        #expect(step.remote == .none)
        #expect(step.local.savedFields == (Self.fields("a", true)))
    }

    @Test func unchangedOnBothSidesDoesNothing() {
        #expect(Self.step(Self.entry(base: Self.fields("a"), local: Self.fields("a"), remote: Self.fields("a"), rev: nil)) == nil)
    }

    @Test func editedLocallyIsPushedWithOnlyTheChangedField() throws {
        let step = try #require(Self.step(Self.entry(base: Self.fields("a"), local: Self.fields("b"), remote: Self.fields("a"))))
        #expect(step.remote == .update(id: "r1", version: nil, fields: Self.fields("b"), changed: [.text]))
        #expect(step.local == .keep)
    }

    @Test func editedRemotelyIsPulled() throws {
        let step = try #require(Self.step(Self.entry(base: Self.fields("a"), local: Self.fields("a"), remote: Self.fields("a", true), rev: nil)))
        #expect(step.remote == .none)
        #expect(step.local.savedFields == (Self.fields("a", true)))
    }

    @Test func differentFieldsChangedOnEachSideMerge() throws {
        let step = try #require(Self.step(Self.entry(base: Self.fields("a"), local: Self.fields("b"), remote: Self.fields("a", true))))
        #expect(step.base == Self.fields("b", true))
        #expect(step.remote == .update(id: "r1", version: nil, fields: Self.fields("b", true), changed: [.text]))
        #expect(step.local.savedFields == (Self.fields("b", true)))
        #expect(step.conflicts.isEmpty)
    }

    @Test func sameChangeOnBothSidesIsNoConflict() throws {
        let step = try #require(Self.step(Self.entry(base: Self.fields("a"), local: Self.fields("b"), remote: Self.fields("b"))))
        #expect(step.conflicts.isEmpty)
        #expect(step.remote == .none)
        #expect(step.local == .keep)
    }

    @Test(arguments: [
        (ConflictPreference.newest, 10.0, 5.0, SyncConflict.Side.local),
        (.newest, 5, 10, .remote),
        (.local, 5, 10, .local),
        (.remote, 10, 5, .remote),
    ])
    func conflictingEditsAreSettledAndRecorded(prefer: ConflictPreference, localTime: Double, remoteTime: Double, winner: SyncConflict.Side) throws {
        let entry = Self.entry(base: Self.fields("a"), local: Self.fields("here"), remote: Self.fields("there"), localTime: localTime, remoteTime: remoteTime)
        let step = try #require(Self.step(entry, prefer: prefer))
        #expect(step.conflicts.count == 1)
        #expect(step.conflicts.first?.field == "text")
        #expect(step.conflicts.first?.winner == winner)
        #expect(step.base?.text == (winner == .local ? "here" : "there"))
    }

    @Test func remoteWithoutTimestampWinsByDefault() throws {
        let step = try #require(Self.step(Self.entry(base: Self.fields("a"), local: Self.fields("here"), remote: Self.fields("there"), localTime: 99)))
        #expect(step.conflicts.first?.winner == .remote)
        #expect(step.conflicts.first?.remoteEditedAt == Self.now)
    }

    /// The server's `updatedAt` says when a change reached it, not when it was made.
    @Test func theServersOwnTimestampDoesNotDecideAConflict() throws {
        let entry = Self.entry(
            base: Self.fields("a"), local: Self.fields("here"), remote: Self.fields("there"),
            localTime: 10, remoteTime: 5, serverTime: 50
        )
        #expect(try #require(Self.step(entry)).conflicts.first?.winner == .local)
    }

    /// An edit time left as the last sync saw it is not the time of the
    /// change that came since: that change counts as made now.
    @Test func anEditTimeAsTheBaseRecordedItCountsAsSeenNow() throws {
        let entry = Self.entry(
            base: Self.fields("a"), local: Self.fields("here"), remote: Self.fields("there"),
            localTime: 10, remoteTime: 5, baseTime: 5
        )
        let conflict = try #require(Self.step(entry)?.conflicts.first)
        #expect(conflict.winner == .remote)
        #expect(conflict.remoteEditedAt == Self.now && conflict.localEditedAt == Date(timeIntervalSince1970: 10))
    }

    @Test func anUpdateCarriesThisMachinesEditTimeForWhatItSends() throws {
        let entry = Self.entry(
            base: Self.fields("a"), local: Self.fields("b"), remote: Self.fields("a", true), localTime: 20, remoteTime: 7, baseTime: 3
        )
        let step = try #require(Self.step(entry))
        #expect(step.editedAt == FieldTimes([.text: Date(timeIntervalSince1970: 20), .done: Date(timeIntervalSince1970: 7)]))
    }

    @Test func deletedLocallyIsDeletedOnTheServer() throws {
        let step = try #require(Self.step(Self.entry(base: Self.fields("a"), remote: Self.fields("a"))))
        #expect(step.remote == .delete(id: "r1", version: nil))
        #expect(step.base == nil)
    }

    @Test func deletedRemotelyIsDeletedHere() throws {
        let step = try #require(Self.step(Self.entry(base: Self.fields("a"), local: Self.fields("a"), rev: nil)))
        #expect(step.local == .delete)
        #expect(step.remote == .none)
    }

    @Test func localEditSurvivesRemoteDelete() throws {
        let step = try #require(Self.step(Self.entry(base: Self.fields("a"), local: Self.fields("a", true))))
        #expect(step.remote == .create(Self.fields("a", true)))
        #expect(step.local == .keep)
    }

    @Test func remoteEditSurvivesLocalDelete() throws {
        let step = try #require(Self.step(Self.entry(base: Self.fields("a"), remote: Self.fields("b"))))
        #expect(step.local.savedFields == (Self.fields("b")))
        #expect(step.remote == .none)
    }

    /// An edit there that set a value again (the same value, a newer edit
    /// time) is an edit too: it survives a delete here. The same edit times
    /// as the base: unchanged, deleted there too.
    @Test func aRemoteEditToTheSameValueSurvivesLocalDelete() throws {
        let touched = try #require(Self.step(Self.entry(base: Self.fields("a"), remote: Self.fields("a"), remoteTime: 20, baseTime: 10)))
        #expect(touched.local.savedFields == Self.fields("a"))
        #expect(touched.remote == .none)
        let untouched = try #require(Self.step(Self.entry(base: Self.fields("a"), remote: Self.fields("a"), remoteTime: 10, baseTime: 10)))
        #expect(untouched.remote == .delete(id: "r1", version: nil))
        // Older than the base (a server that lost an edit): still deleted there.
        let older = try #require(Self.step(Self.entry(base: Self.fields("a"), remote: Self.fields("a"), remoteTime: 5, baseTime: 10)))
        #expect(older.remote == .delete(id: "r1", version: nil))
    }

    @Test func deletedOnBothSidesForgetsTheBase() throws {
        let step = try #require(Self.step(Self.entry(base: Self.fields("a"))))
        #expect(step.base == nil)
        #expect(step.remote == .none)
        #expect(step.local == .keep)
    }

    @Test func createFoundAfterACrashIsLinkedNotDuplicated() throws {
        let step = try #require(Self.step(Self.entry(local: Self.fields("a"), remote: Self.fields("a"))))
        #expect(step.remote == .none)
        #expect(step.base == Self.fields("a"))
    }

    @Test func planIsPureAndOrdered() {
        let entries = [Self.entry(local: Self.fields("a")), Self.entry(base: Self.fields("b"), local: Self.fields("b"), rev: nil)]
        #expect(SyncPlanner.plan(entries, now: Self.now) == SyncPlanner.plan(entries, now: Self.now))
        #expect(SyncPlanner.plan(entries, now: Self.now).localDeletions == 1)
    }

    /// `todo sync --dry-run` prints each step's description: in the words the
    /// real run prints, not the planner's own.
    @Test func dryRunStepsReadAsTheRealRunReports() throws {
        let conflict = Self.entry(base: Self.fields("a"), local: Self.fields("here"), remote: Self.fields("there"), localTime: 5, remoteTime: 10)
        let conflictLine = try #require(Self.step(conflict)).description
        #expect(conflictLine.hasSuffix(#"conflict on 3f2a1b2c text: here "here", server "there": remote kept"#), "\(conflictLine)")
        let same = Self.entry(base: Self.fields("a"), local: Self.fields("b"), remote: Self.fields("b"))
        let sameLine = try #require(Self.step(same)).description
        #expect(sameLine == "3f2a1b2c is the same here and on the server: nothing to send or pull")
    }
}
