import ArgumentParser

/// The `todo` command: a fast, offline todo list on SQLite.
public struct TodoCommand: AsyncParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "todo",
        abstract: "A fast, offline todo list kept in SQLite.",
        discussion: """
            Todos live in one SQLite file: --database PATH, else $TODO_DATABASE, else \
            $XDG_DATA_HOME/todo/todo.sqlite, else ~/.local/share/todo/todo.sqlite.
            IDs are shown as the shortest unique prefix of each todo's UUID; any unique \
            prefix is accepted. With no subcommand, todo lists pending todos.

            Text that starts with a dash goes after --: todo add -- -5 degrees.
            Completions: todo --generate-completion-script bash (or zsh, fish); \
            Docs/command-line.md says where to put them.

            Examples:
              todo add "buy milk"
              todo list --query mi
              todo done 3f2a
            """,
        version: version,
        subcommands: [
            AddCommand.self,
            ListCommand.self,
            DoneCommand.self,
            UndoneCommand.self,
            EditCommand.self,
            TagCommand.self,
            AnnotateCommand.self,
            StartCommand.self,
            StopCommand.self,
            RemoveCommand.self,
            UndoCommand.self,
            RedoCommand.self,
            ShowCommand.self,
            NextCommand.self,
            ProjectsCommand.self,
            ContextCommand.self,
            ExportCommand.self,
            ImportCommand.self,
            SyncCommand.self,
            StatusCommand.self,
            ShareCommand.self,
            SharesCommand.self,
            UnshareCommand.self,
            JoinCommand.self,
            LeaveCommand.self,
            UICommand.self,
            MCPCommand.self,
        ],
        defaultSubcommand: ListCommand.self
    )

    public init() {}
}
