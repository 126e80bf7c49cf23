import Foundation

/// A real terminal for end-to-end tests: a tmux server of the test's own (a
/// private socket, so it never touches a user's tmux), running one command in
/// one pane that keys are sent to and whose screen is read back.
final class TmuxSession {
    let socket = "todo-ui-test-\(UUID().uuidString.prefix(8))"
    /// Where the pane's shell leaves the command's exit status and `stty -a`.
    let directory: URL

    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
            || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")
    }

    /// Starts `command` (a shell command line) in a `columns` x `rows` pane;
    /// when it ends, the pane's shell records its status and the terminal's
    /// modes, then waits to be killed.
    init(_ command: String, in directory: URL, columns: Int = 80, rows: Int = 16, environment: [String: String] = [:]) throws {
        self.directory = directory
        let exports = environment.map { "\($0.key)=\(Self.quoted($0.value))" }.joined(separator: " ")
        let script = "\(exports) \(command); echo $? > \(Self.quoted(statusPath)); stty -a > \(Self.quoted(sttyPath)); exec sleep 600"
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "sh", "-c", script])
    }

    deinit {
        let socketPath = try? tmux(["display-message", "-p", "#{socket_path}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try? tmux(["kill-server"])
        // tmux leaves its socket file behind.
        if let socketPath, !socketPath.isEmpty { try? FileManager.default.removeItem(atPath: socketPath) }
    }

    var statusPath: String { directory.appendingPathComponent("ui-status").path }
    var sttyPath: String { directory.appendingPathComponent("ui-stty").path }

    /// Sends keys by tmux's names (`Enter`, `Escape`, `Up`, `C-c`) or as single characters.
    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "0"] + keys)
    }

    /// Types text literally.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", "0", "-l", text])
    }

    /// Resizes the pane, as a user resizing the terminal window.
    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "0", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The screen as text, one line per row.
    func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-t", "0"])
    }

    /// The process ID of the command the pane's shell runs.
    func commandPID() throws -> Int32 {
        let shell = try tmux(["display-message", "-p", "-t", "0", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try self.shell("pgrep -P \(Self.quoted(shell))")
        guard let pid = children.split(separator: "\n").first.flatMap({ Int32($0) }) else {
            throw Failure("no command runs under the pane's shell \(shell)")
        }
        return pid
    }

    /// Polls the screen until `condition` holds; fails with the last screen
    /// after `timeout` (generous: this waits on another process, not on time).
    @discardableResult
    func waitForScreen(timeout: Duration = .seconds(15), _ what: String, until condition: (String) -> Bool) throws -> String {
        let deadline = ContinuousClock.now + timeout
        var last = ""
        while ContinuousClock.now < deadline {
            last = try screen()
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Failure("timed out waiting for \(what); the screen:\n\(last)")
    }

    /// `waitForScreen`, for async tests: sleeps between looks instead of
    /// holding one of the few threads other tests run on.
    @discardableResult
    func awaitScreen(timeout: Duration = .seconds(15), _ what: String, until condition: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        var last = ""
        while ContinuousClock.now < deadline {
            last = try screen()
            if condition(last) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure("timed out waiting for \(what); the screen:\n\(last)")
    }

    /// Waits for the command to end; its exit status and `stty -a` after it.
    func waitForExit(timeout: Duration = .seconds(15)) throws -> (status: Int32, stty: String) {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let stty = try? String(contentsOfFile: sttyPath, encoding: .utf8), !stty.isEmpty,
               let status = try? String(contentsOfFile: statusPath, encoding: .utf8) {
                return (Int32(status.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1, stty)
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Failure("timed out waiting for the command to end; the screen:\n\((try? screen()) ?? "")")
    }

    /// Runs tmux on this test's server and returns what it printed. Through
    /// the shell, with the output in a file: the server that `new-session`
    /// starts lives on with the client's descriptors, so a pipe would never end.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        try shell((["tmux", "-L", socket] + arguments).map(Self.quoted).joined(separator: " "))
    }

    private func shell(_ command: String) throws -> String {
        let output = directory.appendingPathComponent("tmux-output").path
        let status = system("\(command) > \(Self.quoted(output)) 2>/dev/null < /dev/null")
        guard status == 0 else { throw Failure("\(command) failed (\(status))") }
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
