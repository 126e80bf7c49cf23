import TodoCLI

@main
enum TodoMain {
    @MainActor
    static func main() async {
        await TodoCommand.run(arguments: Array(CommandLine.arguments.dropFirst()))
    }
}
