import Foundation
import TodoCore
import TodoTerminal

// MARK: - Header
// The top line: the counts, the filter, the query, and how syncing goes.

extension TodoView {
    static func header(_ snapshot: TodoSnapshot, _ view: ViewState) -> Line {
        var spans = [Span(" todo ", TextStyle(bold: true, reverse: true))]
        let counts = snapshot.counts.map {
            "\($0.pending) pending · " + ($0.waiting > 0 ? "\($0.waiting) waiting · " : "") + "\($0.done) done"
        } ?? "counting…"
        spans.append(Span(" " + counts + "   showing " + filterName(snapshot.filter), headerStyle))
        if let context = snapshot.context {
            spans.append(Span("   context \(context)", TextStyle(bold: true, reverse: true)))
        }
        if !snapshot.query.isEmpty {
            spans.append(Span("   query “\(snapshot.query)”", TextStyle(bold: true, reverse: true)))
        }
        spans.append(Span("   " + syncStatus(snapshot, view), headerStyle))
        return Line(spans)
    }

    static func filterName(_ filter: TodoRequest.Status) -> String {
        switch filter {
        case .pending: "pending"
        case .done: "done"
        case .all: "all"
        }
    }

    static func syncStatus(_ snapshot: TodoSnapshot, _ view: ViewState) -> String {
        if snapshot.isSyncing {
            if let progress = snapshot.syncProgress {
                return "syncing \(progress.done)/\(progress.total)…"
            }
            return "syncing…"
        }
        if let live = snapshot.live {
            let last = snapshot.lastSyncedAt.map { "synced " + clockTime($0, in: snapshot.timeZone) }
                ?? view.lastSyncAt.map { "last sync " + $0.prefix(16).replacingOccurrences(of: "T", with: " ") }
                ?? "not synced"
            let word = switch live {
            case .live: "live"
            case .polling: "auto-sync"
            case .connecting: "connecting…"
            case .offline: "offline"
            case .failing: "sync failed"
            }
            return word + " · " + last + held(snapshot)
        }
        if let summary = snapshot.lastSync {
            return "synced: \(summary.pulled) pulled, \(summary.pushed) pushed" + held(snapshot)
        }
        if let at = view.lastSyncAt {
            return "last sync " + at.prefix(16).replacingOccurrences(of: "T", with: " ")
        }
        return "not synced"
    }

    /// The deletions the last sync held back, said after how syncing goes.
    static func held(_ snapshot: TodoSnapshot) -> String {
        snapshot.lastSync?.heldBack.map { " · \($0.count) deletions held back" } ?? ""
    }

    /// `14:02:07`, in `timeZone`.
    static func clockTime(_ date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { (value ?? 0) < 10 ? "0\(value ?? 0)" : "\(value ?? 0)" }
        return two(parts.hour) + ":" + two(parts.minute) + ":" + two(parts.second)
    }
}
