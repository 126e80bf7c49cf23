import Foundation
import Synchronization

/// Buffered output to standard output: listing a million todos makes one
/// write per 64 KiB instead of one per line.
final class OutputBuffer {
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16
    private let fileDescriptor: Int32

    init(fileDescriptor: Int32 = STDOUT_FILENO) {
        self.fileDescriptor = fileDescriptor
        buffer.reserveCapacity(capacity)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity, fileDescriptor >= 0 {
            flush()
        }
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity, fileDescriptor >= 0 {
            flush()
        }
    }

    func write(_ byte: UInt8, count: Int = 1) {
        for _ in 0..<count {
            buffer.append(byte)
        }
    }

    /// What is written and not flushed yet: for a buffer used only to
    /// capture (`fileDescriptor` -1, never flushed), everything written.
    var bytes: [UInt8] { buffer }

    /// A buffer that keeps what is written, to be written elsewhere later.
    static func capturing() -> OutputBuffer { OutputBuffer(fileDescriptor: -1) }

    func flush() {
        guard fileDescriptor >= 0 else { return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { bytes in
                Foundation.write(fileDescriptor, bytes.baseAddress, bytes.count)
            }
            if written <= 0 {
                if written < 0 && errno == EINTR { continue }
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit {
        flush()
    }
}

/// What standard output is: whether to colour it (only on a terminal, never
/// with `NO_COLOR` set, never for `TERM=dumb`), and how wide it is.
enum Terminal {
    /// Whether `fileDescriptor` is a terminal: a person reads it, not a script.
    static func isTerminal(_ fileDescriptor: Int32 = STDOUT_FILENO) -> Bool {
        isatty(fileDescriptor) == 1
    }

    /// The terminal's width in columns: `$COLUMNS` when set (as shells and
    /// `ls` honour it), else what the terminal reports; nil if neither says.
    static func columns(_ fileDescriptor: Int32 = STDOUT_FILENO) -> Int? {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 {
            return columns
        }
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    static func usesColor(fileDescriptor: Int32 = STDOUT_FILENO) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
            return false
        }
        if environment["TERM"] == "dumb" {
            return false
        }
        return isatty(fileDescriptor) == 1
    }
}

/// A bar on standard error for work that takes a while (undoing a large
/// import): drawn only on a terminal, and only once the work has run for a
/// second; erased when done. Nothing when standard error is piped.
final class ProgressBar: Sendable {
    private let label: String
    private let started = ContinuousClock.now
    private let drawn = Mutex(false)
    private let onTerminal = isatty(STDERR_FILENO) == 1

    init(_ label: String) { self.label = label }

    func show(done: Int, total: Int) {
        guard onTerminal, total > 0, ContinuousClock.now - started > .seconds(1) else { return }
        let width = 30
        let filled = width * min(done, total) / total
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        drawn.withLock { $0 = true }
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(100 * min(done, total) / total)%\u{1B}[K".utf8))
    }

    /// Erases the bar, if it was drawn (once).
    func end() {
        let was = drawn.withLock { drawn in
            defer { drawn = false }
            return drawn
        }
        if was { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
