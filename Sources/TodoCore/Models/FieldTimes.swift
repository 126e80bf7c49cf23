import Foundation

/// When each field of a todo was last edited, on the machine where the edit
/// was made; nil: never edited since the todo was created.
///
/// A field keeps the time of the edit that gave it its value: sync settles
/// two edits of one field by these times (the later wins), and an edit always
/// beats a value nobody edited, so two copies of one todo made independently
/// (the next occurrence of a repeating todo, completed on two machines) merge
/// with each side's edits kept.
public struct FieldTimes: Sendable, Hashable {
    // Milliseconds since 1970, `Self.never` for none: half the size of
    // `Date?`, and a todo carries them through every copy a sync makes. The
    // times of the plan's fields (`TodoPlan`), which most todos never edit,
    // are boxed as the fields are: nil when none was edited.
    private var textTime = Self.never
    private var doneTime = Self.never
    private var dueTime = Self.never
    private var priorityTime = Self.never
    private var tagsTime = Self.never
    private var noteTime = Self.never
    private var recurrenceTime = Self.never
    private var planTimes: PlanTimes?

    /// The plan's fields' times, by reference, compared by value.
    private final class PlanTimes: Sendable, Hashable {
        let times: [Int64]

        init(_ times: [Int64]) { self.times = times }

        static func == (lhs: PlanTimes, rhs: PlanTimes) -> Bool { lhs.times == rhs.times }
        func hash(into hasher: inout Hasher) { hasher.combine(times) }
    }

    /// Whether one of the plan's fields (`TodoPlan`) has an edit time.
    public var hasPlanTimes: Bool { planTimes != nil }

    /// The plan's field times: project, wait, scheduled, until, parent, blockedBy.
    private func planTime(_ index: Int) -> Int64 { planTimes?.times[index] ?? Self.never }

    private mutating func setPlanTime(_ index: Int, _ value: Int64) {
        if value == Self.never, planTimes == nil { return }
        var times = planTimes?.times ?? Array(repeating: Self.never, count: 6)
        times[index] = value
        planTimes = times.allSatisfy { $0 == Self.never } ? nil : PlanTimes(times)
    }

    private var projectTime: Int64 { planTime(0) }
    private var waitTime: Int64 { planTime(1) }
    private var scheduledTime: Int64 { planTime(2) }
    private var untilTime: Int64 { planTime(3) }
    private var parentTime: Int64 { planTime(4) }
    private var blockedByTime: Int64 { planTime(5) }

    private static let never = Int64.min

    public init(
        text: Date? = nil, done: Date? = nil, due: Date? = nil, priority: Date? = nil, tags: Date? = nil,
        note: Date? = nil, recurrence: Date? = nil, project: Date? = nil, wait: Date? = nil, scheduled: Date? = nil,
        until: Date? = nil, parent: Date? = nil, blockedBy: Date? = nil
    ) {
        self.text = text
        self.done = done
        self.due = due
        self.priority = priority
        self.tags = tags
        self.note = note
        self.recurrence = recurrence
        // Most todos have no plan times: no box, and no array to find that out.
        if project != nil || wait != nil || scheduled != nil || until != nil || parent != nil || blockedBy != nil {
            planTimes = PlanTimes([project, wait, scheduled, until, parent, blockedBy].map(Self.milliseconds))
        }
    }

    public var text: Date? {
        get { Self.date(textTime) }
        set { textTime = Self.milliseconds(newValue) }
    }

    public var done: Date? {
        get { Self.date(doneTime) }
        set { doneTime = Self.milliseconds(newValue) }
    }

    public var due: Date? {
        get { Self.date(dueTime) }
        set { dueTime = Self.milliseconds(newValue) }
    }

    public var priority: Date? {
        get { Self.date(priorityTime) }
        set { priorityTime = Self.milliseconds(newValue) }
    }

    public var tags: Date? {
        get { Self.date(tagsTime) }
        set { tagsTime = Self.milliseconds(newValue) }
    }

    public var note: Date? {
        get { Self.date(noteTime) }
        set { noteTime = Self.milliseconds(newValue) }
    }

    public var recurrence: Date? {
        get { Self.date(recurrenceTime) }
        set { recurrenceTime = Self.milliseconds(newValue) }
    }

    public var project: Date? {
        get { Self.date(projectTime) }
        set { setPlanTime(0, Self.milliseconds(newValue)) }
    }

    public var wait: Date? {
        get { Self.date(waitTime) }
        set { setPlanTime(1, Self.milliseconds(newValue)) }
    }

    public var scheduled: Date? {
        get { Self.date(scheduledTime) }
        set { setPlanTime(2, Self.milliseconds(newValue)) }
    }

    public var until: Date? {
        get { Self.date(untilTime) }
        set { setPlanTime(3, Self.milliseconds(newValue)) }
    }

    public var parent: Date? {
        get { Self.date(parentTime) }
        set { setPlanTime(4, Self.milliseconds(newValue)) }
    }

    public var blockedBy: Date? {
        get { Self.date(blockedByTime) }
        set { setPlanTime(5, Self.milliseconds(newValue)) }
    }

    /// The latest of them, if any.
    public var latest: Date? {
        let first = max(textTime, doneTime, dueTime, priorityTime, tagsTime, noteTime, recurrenceTime)
        return Self.date(planTimes.map { max(first, $0.times.max() ?? first) } ?? first)
    }

    private static func date(_ milliseconds: Int64) -> Date? {
        milliseconds == never ? nil : Date(millisecondsSince1970: milliseconds)
    }

    private static func milliseconds(_ date: Date?) -> Int64 {
        date?.millisecondsSince1970 ?? never
    }

    /// Each field `old` and `new` hold differently stamped as edited at `date`.
    mutating func stamp(changesFrom old: TodoItem, to new: TodoItem, at date: Date) {
        for field in TodoField.allCases where !old.holdsSame(field, as: new) { stamp(field, at: date) }
    }

    /// `field` stamped as edited at `date`, or just after the edit it holds
    /// if that is later: an edit made after another was seen is later than
    /// it, even on a machine whose clock runs behind the one that made it.
    mutating func stamp(_ field: TodoField, at date: Date) {
        let held = self[field].map { $0.addingTimeInterval(0.001) } ?? .distantPast
        self[field] = max(date, held)
    }
}
