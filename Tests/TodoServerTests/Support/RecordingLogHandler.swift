import Foundation
import Logging

/// Keeps every message logged through it, with its metadata, for tests that
/// check what reaches the log.
final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var text: String { lock.withLock { lines.joined(separator: "\n") } }

    func append(_ line: String) {
        lock.withLock { lines.append(line) }
    }

    /// A logger at `trace` that writes here.
    var logger: Logger {
        Logger(label: "recorded") { _ in RecordingLogHandler(recorder: self) }
    }
}

struct RecordingLogHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        recorder.append("\(event.level) \(event.message) \(fields.joined(separator: " "))")
    }
}
