-- When work on a todo began (`todo start`, Taskwarrior's `start`): a todo
-- with one is active until `todo stop`. One of the plan's fields
-- (`TodoField.planned`): NULL for most todos, costing them nothing.

-- The moment, as the other dates are written (ISO 8601 UTC with milliseconds).
ALTER TABLE todo ADD COLUMN start TEXT;
ALTER TABLE todo ADD COLUMN startEditedAt INTEGER;

-- The started todos: a few at a time. A list reads whether any is started
-- from here, and reads the start of every row only if one is.
CREATE INDEX todo_started ON todo(start) WHERE start IS NOT NULL;

-- A change of it is a local change for sync, as the others are.
CREATE TRIGGER todo_after_update_sync_start AFTER UPDATE OF start ON todo
WHEN old.start IS NOT new.start BEGIN
    DELETE FROM syncPending WHERE todoId = new.id;
    INSERT INTO syncPending(todoId) VALUES (new.id);
END;

-- The base of the three-way merge holds it too, with its edit time.
ALTER TABLE syncBase ADD COLUMN start TEXT;
ALTER TABLE syncBase ADD COLUMN startEditedAt INTEGER;
