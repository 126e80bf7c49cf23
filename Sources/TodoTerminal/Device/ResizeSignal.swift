#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGWINCH as something to read: the handler writes a byte to a pipe (the
/// one thing a handler may safely do), and the read end wakes whatever
/// watches it, like a key would. A dispatch signal source cannot be relied on
/// for this on Linux: it needs the signal blocked on every thread.
enum ResizeSignal {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    nonisolated(unsafe) private static var readEnd: Int32 = -1

    /// The descriptor that becomes readable after each resize.
    static func descriptor() -> Int32 {
        guard readEnd < 0 else { return readEnd }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return -1 }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (readEnd, writeEnd) = (ends[0], ends[1])
        SystemCalls.handle(SIGWINCH) { _ in
            var byte: UInt8 = 1
            _ = SystemCalls.write(ResizeSignal.writeEnd, &byte, 1)
        }
        return readEnd
    }

    /// Empties the pipe: any number of resizes since the last look are one.
    static func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ SystemCalls.read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }
}

extension TerminalDevice {
    /// A descriptor that becomes readable when the terminal is resized; call
    /// `resizeHandled()` when the new size is drawn.
    public func resizeDescriptor() -> Int32 {
        ResizeSignal.descriptor()
    }

    public func resizeHandled() {
        ResizeSignal.drain()
    }
}
