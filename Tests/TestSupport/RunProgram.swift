import Foundation

/// Runs a program to its end: its exit status, and what it printed on
/// standard output and standard error.
@discardableResult
public func runProgram(
    _ executable: URL, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment
) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment
    let (out, err) = (Pipe(), Pipe())
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let printed = out.fileHandleForReading.readDataToEndOfFile()
    let complained = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: printed, as: UTF8.self), String(decoding: complained, as: UTF8.self))
}
