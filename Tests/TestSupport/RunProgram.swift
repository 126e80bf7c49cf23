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
    let (out, err) = (privatePipe(), privatePipe())
    process.standardOutput = out
    process.standardError = err
    // Never the test run's own input: a program that asks (vdirsyncer's
    // "create this collection? [y/N]") reads an end, not a pipe held open.
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Both pipes drained at once: a program that fills one while the other
    // is read (vdirsyncer logs a line per task to stderr) would wait forever.
    let complained = PipeReading(err.fileHandleForReading)
    let printed = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: printed, as: UTF8.self), String(decoding: complained.data, as: UTF8.self))
}

/// A pipe read to its end on a thread of its own.
private final class PipeReading: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var read = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            read = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything, once the writer closed it.
    var data: Data {
        done.wait()
        return read
    }
}

/// The exit status of a child that has ended but that Foundation's `Process`
/// has not reaped yet (a zombie), read from `/proc`; nil while it runs.
/// `Process` learns of a child's end on a dispatch queue that a full test
/// run can keep busy for many seconds: a test waiting on `isRunning` alone
/// then waits for the run, not for the child.
public func endedStatus(of pid: Int32) -> Int32? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return nil }
    // After the name: the state (field 3) ... exit_code (field 52), a wait status.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 49, fields[0] == "Z", let status = Int32(fields[49]) else { return nil }
    return (status >> 8) & 0xff
}

/// A pipe that only the child it is given to inherits: both descriptors
/// close on exec. The child still gets its end, as the copy `Process` makes
/// onto its 0, 1 or 2 does not close on exec; any other child started
/// meanwhile gets neither. Foundation's `Process` leaves every inheritable
/// descriptor of the test process open in each child, so a pipe of one test
/// would live on in another test's long-lived child: a `todo mcp` left from
/// an MCP test once held a CLI test's standard error open, and that test
/// read it forever (a whole CI run hung on it).
public func privatePipe() -> Pipe {
    let pipe = Pipe()
    for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }
    return pipe
}
