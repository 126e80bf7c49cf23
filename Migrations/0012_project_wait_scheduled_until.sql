-- What a Taskwarrior user plans with beyond the due date: a project and the
-- wait, scheduled and until dates. All optional; a todo without them keeps
-- NULL and costs nothing more.

-- Names joined by dots, the widest first: `home.garden`.
ALTER TABLE todo ADD COLUMN project TEXT;
-- Dates as `due` holds them (`2026-12-01` or `2026-12-01T13:30:00.000Z`):
-- hidden from lists until `wait`; started on `scheduled`; no repeat after
-- `until`, and gone from lists once past it while unfinished.
ALTER TABLE todo ADD COLUMN wait TEXT;
ALTER TABLE todo ADD COLUMN scheduled TEXT;
ALTER TABLE todo ADD COLUMN until TEXT;
ALTER TABLE todo ADD COLUMN projectEditedAt INTEGER;
ALTER TABLE todo ADD COLUMN waitEditedAt INTEGER;
ALTER TABLE todo ADD COLUMN scheduledEditedAt INTEGER;
ALTER TABLE todo ADD COLUMN untilEditedAt INTEGER;

-- `--project home` (with its sub-projects: one range of the index) and
-- `todo projects`: the todos with a project, by status and project, newest
-- first among equals.
CREATE INDEX todo_on_isDone_project ON todo(isDone, project, createdAt DESC, seq DESC) WHERE project IS NOT NULL;

-- A change of the new fields is a local change for sync, as the others are.
CREATE TRIGGER todo_after_update_sync_project_dates AFTER UPDATE OF project, wait, scheduled, until ON todo
WHEN old.project IS NOT new.project OR old.wait IS NOT new.wait OR old.scheduled IS NOT new.scheduled
    OR old.until IS NOT new.until BEGIN
    DELETE FROM syncPending WHERE todoId = new.id;
    INSERT INTO syncPending(todoId) VALUES (new.id);
END;

-- The base of the three-way merge holds them too (NULL: none, which is
-- what every todo synced before held), with their edit times.
ALTER TABLE syncBase ADD COLUMN project TEXT;
ALTER TABLE syncBase ADD COLUMN wait TEXT;
ALTER TABLE syncBase ADD COLUMN scheduled TEXT;
ALTER TABLE syncBase ADD COLUMN until TEXT;
ALTER TABLE syncBase ADD COLUMN projectEditedAt INTEGER;
ALTER TABLE syncBase ADD COLUMN waitEditedAt INTEGER;
ALTER TABLE syncBase ADD COLUMN scheduledEditedAt INTEGER;
ALTER TABLE syncBase ADD COLUMN untilEditedAt INTEGER;
