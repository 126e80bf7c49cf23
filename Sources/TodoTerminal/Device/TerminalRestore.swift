#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Gives the terminal back from anywhere, a signal handler included: only
/// `write` and `tcsetattr` (both async-signal-safe) on values stored before
/// any handler is installed.
enum TerminalRestore {
    /// Cursor visible, wrapping on, colours reset, main screen.
    nonisolated(unsafe) private static var sequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l".utf8)
    nonisolated(unsafe) private static var original = termios()
    nonisolated(unsafe) private static var descriptor: Int32 = -1
    nonisolated(unsafe) private static var armed = false

    /// The signals that end the process and leave the terminal to us.
    static let endingSignals = [SIGTERM, SIGHUP, SIGINT, SIGQUIT]
    /// The signals a crash raises (a Swift trap is SIGILL or SIGTRAP).
    static let crashSignals = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    static func prepare(descriptor: Int32, original: termios) {
        self.descriptor = descriptor
        self.original = original
        _ = sequence.count
        armed = true
        for signal in endingSignals {
            SystemCalls.handle(signal) { number in
                TerminalRestore.run()
                _exit(128 + number)
            }
        }
        for signal in crashSignals {
            SystemCalls.handle(signal) { number in
                TerminalRestore.run()
                // The crash goes on as it would have: reported, then the end.
                SystemCalls.passOn(number)
            }
        }
    }

    /// Restores the terminal once; later calls do nothing.
    static func run() {
        guard armed else { return }
        armed = false
        sequence.withUnsafeBufferPointer { bytes in
            _ = SystemCalls.write(STDOUT_FILENO, bytes.baseAddress, bytes.count)
        }
        tcsetattr(descriptor, TCSAFLUSH, &original)
    }
}
