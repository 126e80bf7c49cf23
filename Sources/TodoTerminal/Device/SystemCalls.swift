#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's calls under names no method here shadows.
enum SystemCalls {
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
        #else
        Darwin.write(descriptor, bytes, count)
        #endif
    }

    static func read(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, bytes, count)
        #else
        Darwin.read(descriptor, bytes, count)
        #endif
    }

    /// The handlers `handle` replaced, by signal number.
    nonisolated(unsafe) private static var replaced = Array(repeating: sigaction(), count: 65)

    /// Sets a plain handler for `signal`, keeping the one it replaces for `passOn`.
    static func handle(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sigaction_u.__sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, &replaced[Int(signal)])
    }

    /// Gives `signal` to the handler `handle` replaced (the Swift runtime's
    /// crash report, or the default action): from a handler, it is delivered
    /// as soon as the handler returns.
    static func passOn(_ signal: Int32) {
        sigaction(signal, &replaced[Int(signal)], nil)
        raise(signal)
    }
}
