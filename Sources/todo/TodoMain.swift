import TodoCLI

@main
enum TodoMain {
    static func main() async {
        await TodoCommand.main()
    }
}
