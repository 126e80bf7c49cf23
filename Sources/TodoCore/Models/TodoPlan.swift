import Foundation

/// What a Taskwarrior user plans with beyond the due date: a project, the
/// wait, scheduled and until dates, the todo it is a subtask of and the
/// todos that block it. Most todos have none of them.
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
    /// The todo this one is a subtask of. One that is gone (deleted here or
    /// elsewhere) is no parent: its subtasks stand on their own.
    public var parent: UUID?
    /// The todos that must be done before this one (`--blocked-by`), distinct
    /// and sorted (`TodoLinks.normalized`). One done or gone blocks nothing.
    public var blockedBy: [UUID]
    /// When work on it began (`todo start`, Taskwarrior's `start`): a todo
    /// with one is active, until `todo stop`.
    public var start: TodoDue?

    public init(
        project: String? = nil, wait: TodoDue? = nil, scheduled: TodoDue? = nil, until: TodoDue? = nil,
        parent: UUID? = nil, blockedBy: [UUID] = [], start: TodoDue? = nil
    ) {
        self.project = project
        self.wait = wait
        self.scheduled = scheduled
        self.until = until
        self.parent = parent
        self.blockedBy = TodoLinks.normalized(blockedBy)
        self.start = start
    }

    /// Its dates kept to the millisecond, as a todo keeps them.
    public var roundedToMilliseconds: TodoPlan {
        var plan = self
        (plan.wait, plan.scheduled, plan.until) = (wait?.roundedToMilliseconds, scheduled?.roundedToMilliseconds, until?.roundedToMilliseconds)
        plan.start = start?.roundedToMilliseconds
        return plan
    }

    public var isEmpty: Bool {
        project == nil && wait == nil && scheduled == nil && until == nil && parent == nil && blockedBy.isEmpty && start == nil
    }
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

    /// The box for a plan of these fields, nil when all are empty: found
    /// without building the plan, as every todo a sync pulls is built.
    public static func holding(
        project: String?, wait: TodoDue?, scheduled: TodoDue?, until: TodoDue?, parent: UUID?, blockedBy: [UUID]
    ) -> PlanBox? {
        guard project != nil || wait != nil || scheduled != nil || until != nil || parent != nil || !blockedBy.isEmpty
        else { return nil }
        return holding(TodoPlan(
            project: project, wait: wait, scheduled: scheduled, until: until, parent: parent, blockedBy: blockedBy
        ))
    }

    /// The box with its plan's dates kept to the millisecond: itself when they are.
    public var roundedToMilliseconds: PlanBox {
        let rounded = plan.roundedToMilliseconds
        return rounded == plan ? self : PlanBox(rounded)
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

    public var parent: UUID? {
        get { planBox?.plan.parent }
        set { plan.parent = newValue }
    }

    public var blockedBy: [UUID] {
        get { planBox?.plan.blockedBy ?? [] }
        set { plan.blockedBy = TodoLinks.normalized(newValue) }
    }

    public var start: TodoDue? {
        get { planBox?.plan.start }
        set { plan.start = newValue }
    }
}
