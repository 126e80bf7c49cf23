import Foundation
import Testing
import TestSupport

/// `Scripts/install.sh`, given the binaries this test run built (the script's
/// own build is a release build of minutes, left to the user): it installs
/// both programs and their completions under a prefix, and `--uninstall`
/// takes all of it away again.
@Suite("Scripts/install.sh", .threadsOfTheirOwn)
struct InstallScriptTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/install.sh").path

    @Test func installsProgramsAndCompletionsAndUninstallsThem() throws {
        let todo = try TodoProcess()
        let prefix = todo.directory.appendingPathComponent("prefix").path
        let built = TodoProcess.executable.deletingLastPathComponent().path
        let install = try todo.run(["-c", "\(Self.quoted(Self.script)) --from \(Self.quoted(built)) --prefix \(Self.quoted(prefix))"], shell: true)
        #expect(install.status == 0, "\(install.stderr)")

        for program in ["todo", "todo-server"] {
            #expect(FileManager.default.isExecutableFile(atPath: "\(prefix)/bin/\(program)"))
            let completions = [
                "share/bash-completion/completions/\(program)": "-F _\(program) \(program)",
                "share/zsh/site-functions/_\(program)": "#compdef \(program)",
                "share/fish/vendor_completions.d/\(program).fish": "complete -c '\(program)'",
            ]
            for (file, expected) in completions {
                let text = (try? String(contentsOfFile: "\(prefix)/\(file)", encoding: .utf8)) ?? ""
                #expect(text.contains(expected), "\(file)")
            }
        }
        let installed = try todo.run(["-c", "\(Self.quoted(prefix))/bin/todo --version"], shell: true)
        #expect(installed.stdout == "0.1.0\n")

        let uninstall = try todo.run(["-c", "\(Self.quoted(Self.script)) --uninstall --prefix \(Self.quoted(prefix))"], shell: true)
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        let left = FileManager.default.enumerator(atPath: prefix)?.compactMap { $0 as? String }.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: "\(prefix)/\(path)", isDirectory: &isFolder) && !isFolder.boolValue
        }
        #expect(left == [], "left behind: \(left ?? [])")
    }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
