import Testing
@testable import TodoCLI
import TodoCore
@testable import TodoUI

/// The short lists of options the command line keeps for speed (which take
/// a value, so that the word after them is no text and no `-tag`) agree with
/// ArgumentParser's own description of the commands: an option added to
/// `add`, `edit` or `list` without its place in them fails here.
@Suite("The option lists agree with ArgumentParser's description")
struct OptionListsTests {
    static func valueOptions(of command: String) -> Set<String> {
        Set(TodoCommand.describedOptions(of: command).filter(\.takesValue).flatMap(\.names))
    }

    @Test func addAndEditTakeTheValuesUsageProblemSkips() {
        let described = Self.valueOptions(of: "add").union(Self.valueOptions(of: "edit"))
        #expect(described == Set(UsageProblem.optionsWithValues))
    }

    /// The view's add and edit line reads the options add and edit take.
    @Test func theViewsLineTakesTheOptionsOfAddAndEdit() {
        #expect(Set(UsageProblem.optionsWithValues).subtracting(["--database", "--where"]) == TodoEdit.lineOptions)
    }

    @Test func editAndListTakeTheValuesTagRemovalsSkip() {
        let described = Self.valueOptions(of: "edit").union(Self.valueOptions(of: "list"))
        #expect(described == Set(TodoCommand.valueOptions))
    }

    @Test func flagsAreNoOptionsWithValues() {
        let flags = Set(TodoCommand.describedOptions(of: "list").filter { !$0.takesValue }.flatMap(\.names))
        #expect(flags.contains("--all") && flags.contains("--json") && !flags.contains("--limit"))
        #expect(TodoCommand.longOptions(of: "list").contains("--limit"))
        #expect(TodoCommand.longOptions(of: "nothing").isEmpty)
    }
}
