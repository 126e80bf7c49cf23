import Foundation
import Logging

/// How `todo-server` writes its log to standard error.
enum LogFormat: String, CaseIterable, Sendable {
    /// swift-log's lines, for people.
    case text
    /// One JSON object a line, for log collectors: `time`, `level`, `label`,
    /// `message` and the metadata's fields.
    case json
}

/// A log handler writing each entry as one line of JSON to standard error.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [String: String] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            fields[key] = value.description
        }
        fields["time"] = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = event.message.description
        if let error = event.error {
            fields["error"] = String(describing: error)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(fields) else { return }
        // One write per entry, so lines from concurrent requests never interleave.
        FileHandle.standardError.write(data + Data("\n".utf8))
    }
}
