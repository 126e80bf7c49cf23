/// What a Taskwarrior user plans with beyond the due date: a project and
/// the wait, scheduled and until dates. Most todos have none of them.
///
/// Todos and what sync carries hold them boxed (`PlanBox`), nil when all are
/// empty: held inline they made every todo, base and server item 112 bytes
/// larger, and a first sync of 100,000 todos, which copies each several
/// times, 1.34x as long (BENCHMARKS.md, "Projects and dates").
public struct TodoPlan: Sendable, Hashable {
    public var project: String?
    public var wait: TodoDue?
    public var scheduled: TodoDue?
    public var until: TodoDue?

    public init(project: String? = nil, wait: TodoDue? = nil, scheduled: TodoDue? = nil, until: TodoDue? = nil) {
        self.project = project
        self.wait = wait
        self.scheduled = scheduled
        self.until = until
    }

    public var isEmpty: Bool { project == nil && wait == nil && scheduled == nil && until == nil }
}

/// A value held by reference, compared and hashed by value: copying what
/// holds it copies a pointer. Immutable, so shared copies never see a change.
public final class PlanBox: Sendable, Hashable {
    public let plan: TodoPlan

    init(_ plan: TodoPlan) {
        self.plan = plan
    }

    /// The box for `plan`, nil when it is empty.
    public static func holding(_ plan: TodoPlan) -> PlanBox? {
        plan.isEmpty ? nil : PlanBox(plan)
    }

    public static func == (lhs: PlanBox, rhs: PlanBox) -> Bool { lhs === rhs || lhs.plan == rhs.plan }
    public func hash(into hasher: inout Hasher) { hasher.combine(plan) }
}

/// Access to a boxed plan's fields, for the types that hold one.
public protocol PlanHolding {
    var planBox: PlanBox? { get set }
}

extension PlanHolding {
    public var plan: TodoPlan {
        get { planBox?.plan ?? TodoPlan() }
        set { planBox = PlanBox.holding(newValue) }
    }

    public var project: String? {
        get { planBox?.plan.project }
        set { plan.project = newValue }
    }

    public var wait: TodoDue? {
        get { planBox?.plan.wait }
        set { plan.wait = newValue }
    }

    public var scheduled: TodoDue? {
        get { planBox?.plan.scheduled }
        set { plan.scheduled = newValue }
    }

    public var until: TodoDue? {
        get { planBox?.plan.until }
        set { plan.until = newValue }
    }
}
