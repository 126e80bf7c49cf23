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
    private var times = InlineArray<7, Int64>(repeating: Self.never)
    private var planTimes: PlanTimes?

    /// The plan's fields' times, by reference, compared by value.
    private final class PlanTimes: Sendable, Hashable {
        let times: [Int64]

        init(_ times: [Int64]) { self.times = times }

        static func == (lhs: PlanTimes, rhs: PlanTimes) -> Bool { lhs.times == rhs.times }
        func hash(into hasher: inout Hasher) { hasher.combine(times) }
    }

    private static let never = Int64.min

    /// No field edited.
    public init() {
        assert(times.count == TodoField.unplanned.count, "one inline time per field outside the plan")
    }

    /// These fields edited at these times, the others never.
    public init(_ times: [TodoField: Date]) {
        self.init()
        for (field, time) in times { self[field] = time }
    }

    /// When `field` was last edited; nil: never, since the todo was created.
    public subscript(field: TodoField) -> Date? {
        get { Self.date(field.isPlanned ? planTimes?.times[field.slot] ?? Self.never : times[field.slot]) }
        set {
            let value = Self.milliseconds(newValue?.roundedToMilliseconds)
            guard field.isPlanned else {
                times[field.slot] = value
                return
            }
            if value == Self.never, planTimes == nil { return }
            var plan = planTimes?.times ?? Array(repeating: Self.never, count: TodoField.planned.count)
            plan[field.slot] = value
            planTimes = plan.allSatisfy { $0 == Self.never } ? nil : PlanTimes(plan)
        }
    }

    /// Whether one of the plan's fields (`TodoPlan`) has an edit time.
    public var hasPlanTimes: Bool { planTimes != nil }

    /// The latest of them, if any.
    public var latest: Date? {
        var latest = planTimes?.times.max() ?? Self.never
        for index in times.indices { latest = max(latest, times[index]) }
        return Self.date(latest)
    }

    public static func == (lhs: FieldTimes, rhs: FieldTimes) -> Bool {
        guard lhs.planTimes == rhs.planTimes else { return false }
        for index in lhs.times.indices where lhs.times[index] != rhs.times[index] { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        for index in times.indices { hasher.combine(times[index]) }
        hasher.combine(planTimes)
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
