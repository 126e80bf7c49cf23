#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The controlling terminal, taken over for a full-screen view: raw mode (no
/// echo, no line editing, keys as they are typed), the alternate screen, the
/// cursor hidden. `restore()` gives it back as it was, and so does every way
/// the process can end: a quit, SIGTERM, SIGHUP, SIGINT or a crash.
public final class TerminalDevice {
    /// Why a terminal cannot be taken over.
    public enum Unavailable: Error, Equatable, CustomStringConvertible {
        case notATerminal
        case dumbTerminal

        public var description: String {
            switch self {
            case .notATerminal:
                "todo ui needs a terminal on standard input and output: run it in a terminal, not through a pipe"
            case .dumbTerminal:
                "todo ui cannot draw on TERM=dumb: run it in a terminal that supports cursor movement"
            }
        }
    }

    public let input: Int32
    public let output: Int32
    private var isActive = false

    /// Checks that standard input and output are a capable terminal.
    public init(environment: [String: String], input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) throws(Unavailable) {
        guard isatty(input) == 1, isatty(output) == 1 else { throw .notATerminal }
        guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else { throw .dumbTerminal }
        self.input = input
        self.output = output
    }

    /// The size in columns and rows.
    public var size: TerminalSize {
        var size = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return TerminalSize(columns: 80, rows: 24)
        }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    /// Raw mode, alternate screen, cursor hidden; installs the handlers that
    /// restore the terminal if the process is killed or crashes.
    public func enter() {
        guard !isActive else { return }
        var original = termios()
        tcgetattr(input, &original)
        var raw = original
        // Keys as typed, unechoed; Ctrl-C arrives as a key, Ctrl-S and Ctrl-Q
        // too; Enter as CR. Output processing stays on.
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        TerminalRestore.prepare(descriptor: input, original: original)
        tcsetattr(input, TCSAFLUSH, &raw)
        isActive = true
        // Alternate screen, cursor hidden, no wrapping at the right edge, cleared.
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[2J")
    }

    /// Main screen, cursor visible, echo and line mode back. Safe to call twice.
    public func restore() {
        guard isActive else { return }
        isActive = false
        TerminalRestore.run()
    }

    /// Writes all of `text` in as few system calls as the kernel allows: one
    /// for a frame, normally.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = SystemCalls.write(output, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// Reads what the terminal has sent (at least one byte, blocking until
    /// then), or nil at end of input.
    public func read() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { SystemCalls.read(input, $0.baseAddress, $0.count) }
            if count > 0 { return Array(buffer[..<count]) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            return nil
        }
    }
}
