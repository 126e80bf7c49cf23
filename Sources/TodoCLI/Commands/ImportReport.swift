import TodoCore

/// What `todo import` says it did: a line of counts, then each conflict it
/// settled; a dry run lists every todo it would add and each field it would
/// change, before → after.
struct ImportReport {
    let summary: ImportSummary
    let items: [TodoItem]
    let dryRun: Bool

    func write(to out: OutputBuffer) {
        let s = summary.inserted == 1 ? "" : "s"
        if dryRun {
            out.write("Would import \(summary.inserted) new todo\(s), update \(summary.updated), keep \(summary.unchanged) unchanged; ")
            out.write("nothing was written (without --dry-run, it is)\n")
            for index in summary.added {
                out.write("+ \(Self.short(items[index])) \(items[index].text)\n")
            }
        } else {
            out.write("Imported \(summary.inserted) new todo\(s), updated \(summary.updated), kept \(summary.unchanged) unchanged\n")
        }
        for merge in summary.merges {
            let before = merge.before
            if dryRun, merge.merge.changes {
                out.write("~ \(Self.short(before)) \(before.text)\n")
                for field in merge.merge.taken {
                    out.write("    \(field.rawValue): \(shownValue(before[field])) → \(shownValue(merge.merge.merged[field]))\n")
                }
            }
            for conflict in merge.merge.conflicts {
                let kept = switch (conflict.keptHere, dryRun) {
                case (true, false): "kept here's"
                case (true, true): "keeps here's"
                case (false, false): "took the file's"
                case (false, true): "takes the file's"
                }
                out.write("Conflict on \(Self.short(before)) “\(before.text)”: \(conflict.field.rawValue) is \(shownValue(conflict.here)) here, ")
                out.write("\(shownValue(conflict.file)) in the file; \(kept), the later edit\n")
            }
        }
        if !summary.stale.isEmpty {
            let count = summary.stale.count
            out.write("Kept \(count) todo\(count == 1 ? "" : "s") as \(count == 1 ? "it is" : "they are") here: ")
            out.write("the file's \(count == 1 ? "version is" : "versions are") older than the last import's\n")
        }
    }

    /// A todo's ID as lists abbreviate it, enough to tell it apart here.
    private static func short(_ item: TodoItem) -> String { String(item.idString.prefix(8)) }
}
