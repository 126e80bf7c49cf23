import ArgumentParser
import Foundation
import TodoCore

struct ContextCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "context",
        abstract: "Save filters as a context and switch to it, or switch contexts off.",
        discussion: """
            While a context is on, list, next and ui show only the todos it keeps, and \
            add gives new todos its project and tags. todo context NAME with filters \
            saves them under NAME (replacing what it held) and switches to it; with none \
            it switches to a saved one. todo context none switches contexts off; with no \
            name, the saved contexts are listed, the one on marked with *.

            Examples:
              todo context work --project work
              todo context errands --tag errands --not-tag someday
              todo context work
              todo context none
              todo context --delete errands
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The context to switch to or save, or none.", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("Keep the todos of this project and its sub-projects; new todos get it.", valueName: "project"))
    var project: String?

    @Option(name: .customLong("tag"), help: ArgumentHelp("Keep the todos with this tag; new todos get it. Give --tag again for more.", valueName: "tag"))
    var tags: [String] = []

    @Option(name: .customLong("not-tag"), help: ArgumentHelp("Leave out the todos with this tag.", valueName: "tag"))
    var excludedTags: [String] = []

    @Option(help: ArgumentHelp("Delete this saved context (switching contexts off if it was on).", valueName: "name"))
    var delete: String?

    var hasFilters: Bool { project != nil || !tags.isEmpty || !excludedTags.isEmpty }

    func validate() throws {
        if delete != nil, name != nil || hasFilters {
            throw ValidationError("--delete takes only the name of the context to delete: todo context --delete NAME")
        }
        if name == nil, hasFilters {
            throw ValidationError("filters need a name to be saved under: todo context NAME \(ShellWord.quoted(filtersText))")
        }
        if let name, name.lowercased() == PlanningArguments.none, hasFilters {
            throw ValidationError("todo context none switches contexts off and takes no filters; give the context a name")
        }
        if let name, name.lowercased() != PlanningArguments.none {
            do { _ = try TodoContext.validatedName(name) } catch { throw ValidationError(CommandLineError.words(error)) }
        }
        if let project, project.lowercased() == PlanningArguments.none {
            throw ValidationError("a context keeps one project and gives it to new todos: name one, e.g. --project work")
        }
        _ = try ListFilters.projectFilter(project)
        try ListFilters.validate(tags: tags, excludedTags: excludedTags)
    }

    private var filtersText: String {
        ([project.map { "--project \($0)" }] + tags.map { "--tag \($0)" } + excludedTags.map { "--not-tag \($0)" })
            .compactMap { $0 }.joined(separator: " ")
    }

    @MainActor
    mutating func run() async throws {
        let db = try database.open()
        var (contexts, active) = try db.savedContexts()
        if let delete {
            guard contexts.contains(where: { $0.name == delete }) else { throw ContextError.noSuchContext(delete, saved: contexts.map(\.name)) }
            contexts.removeAll { $0.name == delete }
            try db.saveContexts(contexts, active: active?.name == delete ? nil : active?.name)
            print("Deleted context \(delete)" + (active?.name == delete ? "; no context is on" : ""))
            return
        }
        guard let name else {
            if contexts.isEmpty {
                print("No context is saved. Save one with: todo context work --project work")
            }
            for context in contexts {
                print((context.name == active?.name ? "* " : "  ") + context.name + "  " + context.options)
            }
            return
        }
        if name.lowercased() == PlanningArguments.none {
            try db.saveContexts(contexts, active: nil)
            print("No context is on: list, next and ui show every todo")
            return
        }
        let context: TodoContext
        if hasFilters {
            context = TodoContext(
                name: try TodoContext.validatedName(name), project: try project.map { try TodoProject.validated($0) },
                tags: try tags.map { try TodoTags.validated($0) }, excludedTags: try excludedTags.map { try TodoTags.validated($0) }
            )
            contexts.removeAll { $0.name == context.name }
            contexts.append(context)
        } else {
            guard let saved = contexts.first(where: { $0.name == name }) else {
                throw ContextError.noSuchContext(name, saved: contexts.map(\.name))
            }
            context = saved
        }
        try db.saveContexts(contexts, active: context.name)
        print("Context \(context.name) is on: \(context.options)")
    }
}

/// Why `context` could not switch.
enum ContextError: Error, Equatable, CustomStringConvertible {
    case noSuchContext(String, saved: [String])

    var description: String {
        switch self {
        case let .noSuchContext(name, saved):
            "there is no context '\(name)'"
                + (saved.isEmpty ? ": save one with todo context \(name) --project \(name)" : ": the saved ones are " + saved.joined(separator: ", ")
                    + "; save it with todo context \(name) --project \(name)")
        }
    }
}
