-- Redo: a change undo took back stays in the journal, marked with when it
-- was undone, until redo brings it back or a new change is made here, which
-- drops every marked one (the usual redo stack).
ALTER TABLE undoStep ADD COLUMN undoneAt INTEGER;

-- The marked changes, found without reading the journal: every write here
-- looks for them.
CREATE INDEX undoStep_on_undone ON undoStep(id) WHERE undoneAt IS NOT NULL;
