-- Sync bookkeeping for `todo sync`, written in the same transactions as the
-- todos it describes.

-- What both sides held at the last successful sync, per todo: the base of the
-- three-way merge. A base row whose todo is gone locally means "deleted here";
-- a todo with no base row means "added here".
CREATE TABLE syncBase (
    todoId TEXT PRIMARY KEY NOT NULL,
    -- the server's id for it, as text (numbers keep their decimal form)
    remoteId TEXT NOT NULL,
    text TEXT NOT NULL,
    isDone INTEGER NOT NULL CHECK (isDone IN (0, 1)),
    -- the server's version (todo-server's ETag), if it has versions
    remoteVersion INTEGER
) STRICT;

CREATE INDEX syncBase_on_remoteId ON syncBase(remoteId);

-- Todos changed here since they were last synced, so finding local changes
-- never scans every todo. `rev` grows on every change: a sync clears a row
-- only if it still has the rev the sync read, so an edit made during a sync
-- stays queued.
CREATE TABLE syncPending (
    rev INTEGER PRIMARY KEY AUTOINCREMENT,
    todoId TEXT NOT NULL UNIQUE
);

-- Every todo that exists when sync arrives is a local addition.
INSERT INTO syncPending(todoId) SELECT id FROM todo ORDER BY seq;

CREATE TRIGGER todo_after_insert_sync AFTER INSERT ON todo BEGIN
    DELETE FROM syncPending WHERE todoId = new.id;
    INSERT INTO syncPending(todoId) VALUES (new.id);
END;

CREATE TRIGGER todo_after_update_sync AFTER UPDATE OF text, isDone ON todo
WHEN old.text IS NOT new.text OR old.isDone IS NOT new.isDone BEGIN
    DELETE FROM syncPending WHERE todoId = new.id;
    INSERT INTO syncPending(todoId) VALUES (new.id);
END;

CREATE TRIGGER todo_after_delete_sync AFTER DELETE ON todo BEGIN
    DELETE FROM syncPending WHERE todoId = old.id;
    INSERT INTO syncPending(todoId) VALUES (old.id);
END;

-- Every conflict a sync settled, for `todo sync --conflicts` to show.
CREATE TABLE syncConflict (
    id INTEGER PRIMARY KEY,
    -- milliseconds since 1970, UTC
    at INTEGER NOT NULL,
    todoId TEXT NOT NULL,
    field TEXT NOT NULL,
    localValue TEXT NOT NULL,
    remoteValue TEXT NOT NULL,
    -- "local" or "remote"
    winner TEXT NOT NULL
) STRICT;

-- Creates sent to the server whose answer was not recorded yet. Until the
-- next full fetch finds them (by the marker they carry) or proves them
-- absent, an empty server list cannot be trusted.
CREATE TABLE syncCreateInFlight (
    todoId TEXT PRIMARY KEY NOT NULL
) STRICT;
