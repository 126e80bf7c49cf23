-- The todos. `id` is the client-generated UUID (lowercase text) every other
-- part of the app uses; `seq` is an integer key that never changes, so the
-- search index below can point at rows even across VACUUM.
CREATE TABLE todo (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE CHECK (length(id) = 36),
    text TEXT NOT NULL CHECK (length(text) > 0),
    -- text lowercased, decomposed, without combining marks (TodoItem.searchKey):
    -- what search compares against
    searchText TEXT NOT NULL,
    isDone INTEGER NOT NULL DEFAULT 0 CHECK (isDone IN (0, 1)),
    -- times in milliseconds since 1970, UTC
    createdAt INTEGER NOT NULL,
    updatedAt INTEGER NOT NULL,
    completedAt INTEGER,
    -- length of the shortest prefix of `id` no other todo shares (at least 4),
    -- kept up to date on every insert and delete so listing costs nothing extra
    idPrefixLength INTEGER NOT NULL DEFAULT 4
) STRICT;

-- Newest first, pending or done, without sorting.
CREATE INDEX todo_on_isDone_createdAt ON todo(isDone, createdAt);
CREATE INDEX todo_on_createdAt ON todo(createdAt);
-- The widest short ID, for aligning the ID column, without a scan.
CREATE INDEX todo_on_idPrefixLength ON todo(idPrefixLength);

-- Substring search: every three-character run of searchText, case-sensitive
-- because searchText is already lowercased. Queries of three characters or
-- more are answered from here instead of scanning the table.
CREATE VIRTUAL TABLE todoSearch USING fts5(
    searchText,
    content = 'todo',
    content_rowid = 'seq',
    tokenize = 'trigram case_sensitive 1',
    detail = 'none'
);

CREATE TRIGGER todo_after_insert AFTER INSERT ON todo BEGIN
    INSERT INTO todoSearch(rowid, searchText) VALUES (new.seq, new.searchText);
END;

CREATE TRIGGER todo_after_delete AFTER DELETE ON todo BEGIN
    INSERT INTO todoSearch(todoSearch, rowid, searchText) VALUES ('delete', old.seq, old.searchText);
END;

CREATE TRIGGER todo_after_update_of_searchText AFTER UPDATE OF searchText ON todo
WHEN old.searchText IS NOT new.searchText BEGIN
    INSERT INTO todoSearch(todoSearch, rowid, searchText) VALUES ('delete', old.seq, old.searchText);
    INSERT INTO todoSearch(rowid, searchText) VALUES (new.seq, new.searchText);
END;

-- Small named values: the last search query, and later sync settings.
CREATE TABLE setting (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
) STRICT;
