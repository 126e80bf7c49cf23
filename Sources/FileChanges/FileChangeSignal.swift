import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Wakes its listener when a process writes a SQLite database: its file, its
/// `-wal` or its `-journal` (inotify on Linux, on the folder, so a WAL
/// deleted and made again is still seen). A live `todo ui` and todo-server's
/// event streams wait on it instead of polling often.
///
/// A wake says only "look again": the listener reads SQLite's `data_version`
/// (or its own counters) to learn whether anything changed, so a spurious
/// wake costs one read. A commit becomes visible to readers a moment after
/// its last write to the WAL (after the sync to disk), so each burst of
/// writes wakes the listener at once and twice more (`settleDelays`) in
/// case it looked too early; and a steady wake every `interval` covers what
/// no watch sees (a system without inotify, a folder on a network file
/// system). Between writes, that steady wake is all that runs.
public struct FileChangeSignal: Sendable {
    public let databasePath: String
    public let interval: Duration

    /// When a burst of writes wakes the listener again.
    static let settleDelays: [Duration] = [.milliseconds(20), .milliseconds(250)]

    public init(databasePath: String, interval: Duration = .seconds(1)) {
        self.databasePath = databasePath
        self.interval = interval
    }

    /// Names in the database's folder whose writes count.
    var watchedNames: Set<String> {
        let name = (databasePath as NSString).lastPathComponent
        return [name, name + "-wal", name + "-journal"]
    }

    /// One element per wake (at most one waits unread), until the stream is dropped.
    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        var watch: (any Sendable)?
        #if canImport(Glibc)
        watch = InotifyWatch(folder: (databasePath as NSString).deletingLastPathComponent, names: watchedNames) {
            continuation.yield()
            for delay in Self.settleDelays {
                Task {
                    try? await Task.sleep(for: delay)
                    continuation.yield()
                }
            }
        }
        #endif
        let interval = self.interval
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                continuation.yield()
            }
        }
        continuation.onTermination = { [watch] _ in
            ticker.cancel()
            #if canImport(Glibc)
            (watch as? InotifyWatch)?.cancel()
            #endif
        }
        return stream
    }
}

#if canImport(Glibc)
/// An inotify watch on a folder, calling `onChange` (on a dispatch queue)
/// when one of `names` in it is written, made or moved in.
/// `@unchecked`: its one property is set once, and a dispatch source may be cancelled from any thread.
final class InotifyWatch: @unchecked Sendable {
    private let source: any DispatchSourceRead

    init?(folder: String, names: Set<String>, onChange: @escaping @Sendable () -> Void) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY) | UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE)
        guard inotify_add_watch(descriptor, folder.isEmpty ? "." : folder, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: DispatchQueue(label: "todo.file-change-signal"))
        source.setEventHandler {
            if Self.drain(descriptor, names: names) { onChange() }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        self.source = source
    }

    func cancel() {
        source.cancel()
    }

    /// Reads every pending event; true if one named a watched file.
    private static func drain(_ descriptor: Int32, names: Set<String>) -> Bool {
        var matched = false
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, size)
            guard count > 0 else { return matched }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = buffer.advanced(by: offset + MemoryLayout<inotify_event>.size)
                if event.len > 0, !matched {
                    let name = String(cString: nameStart.assumingMemoryBound(to: CChar.self))
                    matched = names.contains(name)
                } else if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    matched = true
                }
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
            }
        }
    }
}
#endif
