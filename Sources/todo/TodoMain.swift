import TodoCLI

@main
enum TodoMain {
    static func main() async {
        await TodoCommand.run(arguments: Array(CommandLine.arguments.dropFirst()))
    }
}
