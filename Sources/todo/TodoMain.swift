import Foundation
import TodoCLI

@main
enum TodoMain {
    /// Runs `todo` on the main thread's run loop instead of as an `async` main.
    ///
    /// An async main that has to wait parks the main thread with `pthread_exit`,
    /// which unwinds its stack; in the fully static release binary the first
    /// unwind sorts every unwind entry of the binary, about 50 ms. The run loop
    /// serves the main actor just the same, and the command exits when done.
    static func main() {
        Task { @MainActor in
            await TodoCommand.run(arguments: Array(CommandLine.arguments.dropFirst()))
            exit(0)
        }
        while true {
            RunLoop.main.run()
        }
    }
}
