-- Subtasks and dependencies: the todo a todo is a subtask of, and the todos
-- that must be done before it. A todo without them keeps NULL and costs
-- nothing more. A parent or blocker that is gone (deleted here, or on
-- another machine while this one linked to it) is read as none.

-- The parent's id, lowercase with dashes.
ALTER TABLE todo ADD COLUMN parent TEXT;
-- A JSON array of the blockers' ids, distinct and sorted; NULL for none.
ALTER TABLE todo ADD COLUMN blockedBy TEXT;
ALTER TABLE todo ADD COLUMN parentEditedAt INTEGER;
ALTER TABLE todo ADD COLUMN blockedByEditedAt INTEGER;

-- A parent's subtasks (completing it, copying them for its next occurrence),
-- and every link there is (a list's tree, a new link checked for cycles),
-- read from the index alone: id and blockers ride along.
CREATE INDEX todo_on_parent ON todo(parent, id, blockedBy) WHERE parent IS NOT NULL;
-- The blocked todos, by status: which todos block an open one (`todo next`'s
-- blocking term) and, with the index above, every link.
CREATE INDEX todo_on_isDone_blockedBy ON todo(isDone, blockedBy, id, parent) WHERE blockedBy IS NOT NULL;

-- A change of the new fields is a local change for sync, as the others are.
CREATE TRIGGER todo_after_update_sync_links AFTER UPDATE OF parent, blockedBy ON todo
WHEN old.parent IS NOT new.parent OR old.blockedBy IS NOT new.blockedBy BEGIN
    DELETE FROM syncPending WHERE todoId = new.id;
    INSERT INTO syncPending(todoId) VALUES (new.id);
END;

-- The base of the three-way merge holds them too (NULL: none), with their
-- edit times: blockers merge as a set against it, as tags do.
ALTER TABLE syncBase ADD COLUMN parent TEXT;
ALTER TABLE syncBase ADD COLUMN blockedBy TEXT;
ALTER TABLE syncBase ADD COLUMN parentEditedAt INTEGER;
ALTER TABLE syncBase ADD COLUMN blockedByEditedAt INTEGER;
