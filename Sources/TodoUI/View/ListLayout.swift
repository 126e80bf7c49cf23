/// Which rows of the loaded ones are on screen: a pure function of the
/// selection and the room, shared by drawing and by the keys that scroll.
public struct ListLayout: Sendable, Equatable {
    /// The index of the first row on screen.
    public var top: Int
    /// The index of the selected row, nil if there are no rows.
    public var selected: Int?

    /// The layout for `count` rows in `height` lines, the row at `selected`
    /// drawn on line `preferredRow` when the rows around allow it.
    public init(count: Int, selected: Int?, preferredRow: Int, height: Int, hasOlder: Bool) {
        guard let selected, count > 0, height > 0 else {
            self.top = 0
            self.selected = count > 0 ? 0 : nil
            return
        }
        let index = min(max(selected, 0), count - 1)
        var top = index - min(max(preferredRow, 0), height - 1)
        // At the end of the list, no empty lines below the last row.
        if !hasOlder { top = min(top, count - height) }
        self.top = max(0, top)
        self.selected = index
    }

    /// The line, within the list, the selection is drawn on.
    public var selectionRow: Int { (selected ?? top) - top }
}
