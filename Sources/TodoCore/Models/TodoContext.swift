import Foundation

/// A saved context (`todo context work --project work`): filters that
/// `list`, `next` and the view apply while it is on, and the project and
/// tags `add` gives new todos.
public struct TodoContext: Sendable, Hashable, Codable {
    public var name: String
    public var project: String?
    public var tags: [String]
    public var excludedTags: [String]

    public init(name: String, project: String? = nil, tags: [String] = [], excludedTags: [String] = []) {
        self.name = name
        self.project = project
        self.tags = TodoTags.normalized(tags)
        self.excludedTags = TodoTags.normalized(excludedTags)
    }

    /// A context's name: one word of letters, digits, `-` and `_`, not `none`.
    public static func validatedName(_ raw: String) throws(TodoFieldError) -> String {
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 40, name.lowercased() != "none",
              name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" })
        else { throw .badContextName(raw) }
        return name
    }

    /// `request` narrowed to the context: its tags and left-out tags added,
    /// its project where the request names none. A tag the request asks for
    /// is no longer left out: asked for by name, it wins over the context.
    public func narrowing(_ request: TodoRequest) -> TodoRequest {
        var request = request
        request.tags = TodoTags.normalized(request.tags + tags)
        request.excludedTags = TodoTags.normalized(request.excludedTags + excludedTags.filter { !request.tags.contains($0) })
        if request.project == nil, let project { request.project = .within(project) }
        return request
    }

    /// A new todo's fields with the context's: its project where none is
    /// given, and its tags.
    public func filling(_ edit: TodoEdit) -> TodoEdit {
        var edit = edit
        if edit.project == nil, let project { edit.project = .some(project) }
        edit.addTags += tags.filter { !edit.removeTags.contains($0) }
        return edit
    }

    /// The context as options: `--project work --tag office --not-tag someday`.
    public var options: String {
        var words: [String] = []
        if let project { words += ["--project", project] }
        for tag in tags { words += ["--tag", tag] }
        for tag in excludedTags { words += ["--not-tag", tag] }
        return words.joined(separator: " ")
    }
}
