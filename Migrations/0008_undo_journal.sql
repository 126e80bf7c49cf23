-- The undo journal: the changes made on this machine (add, edit, done,
-- undone, rm, import), each with every todo it touched as it was before and
-- after, so `todo undo` can take them back, the latest first. A sync's writes
-- are not journaled: they are not changes made here.

-- One row per change, numbered in the order they were made.
CREATE TABLE undoStep (
    id INTEGER PRIMARY KEY,
    -- milliseconds since 1970, UTC
    at INTEGER NOT NULL,
    -- what wrote it: 'add', 'update' (an edit, or done or undone marks, with
    -- the next occurrences a completed repeating todo brought), 'delete', 'import'
    kind TEXT NOT NULL CHECK (kind IN ('add', 'update', 'delete', 'import'))
) STRICT;

-- Each todo a change touched: its columns as a JSON object before the change
-- (NULL: it did not exist) and after it (NULL: the change deleted it).
CREATE TABLE undoTodo (
    step INTEGER NOT NULL REFERENCES undoStep(id) ON DELETE CASCADE,
    todoId TEXT NOT NULL,
    before TEXT,
    after TEXT,
    PRIMARY KEY (step, todoId)
) STRICT, WITHOUT ROWID;
