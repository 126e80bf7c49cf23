-- When each field of a todo was last edited, so a sync settles two edits of
-- one field by when each was made, and an edit always beats a value nobody
-- edited (milliseconds since 1970, UTC; NULL: never edited since the todo
-- was created, or before this migration).
ALTER TABLE todo ADD COLUMN textEditedAt INTEGER;
ALTER TABLE todo ADD COLUMN doneEditedAt INTEGER;
ALTER TABLE todo ADD COLUMN dueEditedAt INTEGER;
ALTER TABLE todo ADD COLUMN priorityEditedAt INTEGER;
ALTER TABLE todo ADD COLUMN tagsEditedAt INTEGER;
ALTER TABLE todo ADD COLUMN noteEditedAt INTEGER;
ALTER TABLE todo ADD COLUMN recurrenceEditedAt INTEGER;

-- The dates the server's item carried at the last sync (NULL: none, or a
-- base recorded before this migration), so a change of them alone (another
-- replica agreeing on the earliest creation) is seen like any other.
ALTER TABLE syncBase ADD COLUMN createdAt INTEGER;
ALTER TABLE syncBase ADD COLUMN completedAt INTEGER;

-- A synced todo's dates were written into the server's item and read back:
-- the ones here are the ones the server holds (a difference is merged by the
-- next sync), so a first sync after this migration does not read every base
-- as changed.
UPDATE syncBase SET
    createdAt = (SELECT createdAt FROM todo WHERE todo.id = syncBase.todoId),
    completedAt = (SELECT completedAt FROM todo WHERE todo.id = syncBase.todoId);
