import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to a loopback port, for requests no HTTP client
/// would send: HTTP/1.0, a head sent a byte at a time, broken chunks.
///
/// Its calls block, so each runs on a thread of its own, away from the
/// cooperative pool the server under test needs.
final class RawConnection: @unchecked Sendable {
    private let socket: Int32
    private let lock = NSLock()
    private var received: [UInt8] = []
    private var closed = false

    /// Connects, and sends `head` at once if given: on the same thread, so
    /// that a busy test run cannot leave the server waiting for it past its
    /// idle timeout.
    init(port: Int, sending head: String? = nil) async throws {
        socket = try await Self.blocking {
            let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard fd >= 0, result == 0 else { throw POSIXError(.ECONNREFUSED) }
            if let head { try Self.sendAll(Array(head.utf8), on: fd) }
            return fd
        }
    }

    deinit {
        close(socket)
    }

    func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) async throws {
        try await Self.blocking { [socket] in try Self.sendAll(bytes, on: socket) }
    }

    private static func sendAll(_ bytes: [UInt8], on socket: Int32) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw POSIXError(.EPIPE) }
            sent += count
        }
    }

    /// Everything received until the server closes the connection, or nil if
    /// it is still open after `timeout`.
    func readUntilClosed(timeout: Duration) async throws -> String? {
        try await Self.blocking { [socket] in
            let deadline = ContinuousClock.now + timeout
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while ContinuousClock.now < deadline {
                var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 50) > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return String(decoding: received, as: UTF8.self) }
                received += buffer[..<count]
            }
            return nil
        }
    }

    /// What arrives until the text received so far contains `text` (nil if
    /// it has not after `timeout`, or the connection closed first); what
    /// arrived stays for the next call to see too.
    func read(until text: String, timeout: Duration) async throws -> String? {
        try await Self.blocking { [self] in
            let deadline = ContinuousClock.now + timeout
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let seen = lock.withLock { String(decoding: received, as: UTF8.self) }
                if seen.contains(text) { return seen }
                guard ContinuousClock.now < deadline else { return nil }
                var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 20) > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                if count <= 0 {
                    lock.withLock { closed = true }
                    return nil
                }
                lock.withLock { received += buffer[..<count] }
            }
        }
    }

    /// Whether `read(until:timeout:)` saw the server close the connection.
    var isClosed: Bool { lock.withLock { closed } }

    /// Everything `read(until:timeout:)` has received.
    var receivedText: String { lock.withLock { String(decoding: received, as: UTF8.self) } }

    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}
