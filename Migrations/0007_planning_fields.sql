-- What people plan with: a due date, a priority, tags, a note and a repeat.
-- All optional; a todo without them keeps NULL and costs nothing more.

-- `2026-12-01` (a calendar date, the same in every time zone) or
-- `2026-12-01T13:30:00.000Z` (a moment, in UTC): both sort as text in due order.
ALTER TABLE todo ADD COLUMN due TEXT;
-- 1 high, 2 medium, 3 low.
ALTER TABLE todo ADD COLUMN priority INTEGER CHECK (priority IN (1, 2, 3));
-- A JSON array of distinct tags, sorted; NULL for none.
ALTER TABLE todo ADD COLUMN tags TEXT;
ALTER TABLE todo ADD COLUMN note TEXT;
-- `daily`, `weekly`, `monthly`, `yearly`, or a count and a unit: `3d`, `2w`, `6m`, `2y`.
ALTER TABLE todo ADD COLUMN recurrence TEXT;

-- `--due …` and `--sort due`: the todos with a due date, by status, soonest
-- first and newest first among equals, without sorting.
CREATE INDEX todo_on_isDone_due ON todo(isDone, due, createdAt DESC, seq DESC) WHERE due IS NOT NULL;
-- `--priority …` and `--sort priority`, the same way.
CREATE INDEX todo_on_isDone_priority ON todo(isDone, priority, createdAt DESC, seq DESC) WHERE priority IS NOT NULL;

-- One row per tag of each todo, kept by the triggers below, in list order:
-- `--tag home` walks its tag's run newest first and stops at the limit.
CREATE TABLE todoTag (
    tag TEXT NOT NULL,
    isDone INTEGER NOT NULL,
    createdAt INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (tag, isDone, createdAt, seq)
) STRICT, WITHOUT ROWID;

CREATE INDEX todoTag_on_seq ON todoTag(seq);

CREATE TRIGGER todo_after_insert_tags AFTER INSERT ON todo WHEN new.tags IS NOT NULL BEGIN
    INSERT INTO todoTag(tag, isDone, createdAt, seq)
        SELECT value, new.isDone, new.createdAt, new.seq FROM json_each(new.tags);
END;

CREATE TRIGGER todo_after_delete_tags AFTER DELETE ON todo WHEN old.tags IS NOT NULL BEGIN
    DELETE FROM todoTag WHERE seq = old.seq;
END;

CREATE TRIGGER todo_after_update_tags AFTER UPDATE OF tags, isDone, createdAt ON todo
WHEN (old.tags IS NOT NULL OR new.tags IS NOT NULL)
    AND (old.tags IS NOT new.tags OR old.isDone IS NOT new.isDone OR old.createdAt IS NOT new.createdAt) BEGIN
    DELETE FROM todoTag WHERE seq = old.seq;
    INSERT INTO todoTag(tag, isDone, createdAt, seq)
        SELECT value, new.isDone, new.createdAt, new.seq FROM json_each(new.tags) WHERE new.tags IS NOT NULL;
END;

-- A change of the new fields is a local change for sync, as text and done are.
CREATE TRIGGER todo_after_update_sync_planning AFTER UPDATE OF due, priority, tags, note, recurrence ON todo
WHEN old.due IS NOT new.due OR old.priority IS NOT new.priority OR old.tags IS NOT new.tags
    OR old.note IS NOT new.note OR old.recurrence IS NOT new.recurrence BEGIN
    DELETE FROM syncPending WHERE todoId = new.id;
    INSERT INTO syncPending(todoId) VALUES (new.id);
END;

-- The base of the three-way merge holds the new fields too (NULL: none,
-- which is what every todo synced before held), with their edit times.
ALTER TABLE syncBase ADD COLUMN due TEXT;
ALTER TABLE syncBase ADD COLUMN priority INTEGER;
ALTER TABLE syncBase ADD COLUMN tags TEXT;
ALTER TABLE syncBase ADD COLUMN note TEXT;
ALTER TABLE syncBase ADD COLUMN recurrence TEXT;
ALTER TABLE syncBase ADD COLUMN dueEditedAt INTEGER;
ALTER TABLE syncBase ADD COLUMN priorityEditedAt INTEGER;
ALTER TABLE syncBase ADD COLUMN tagsEditedAt INTEGER;
ALTER TABLE syncBase ADD COLUMN noteEditedAt INTEGER;
ALTER TABLE syncBase ADD COLUMN recurrenceEditedAt INTEGER;
