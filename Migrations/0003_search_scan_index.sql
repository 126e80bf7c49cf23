-- Searching for one or two characters cannot use the trigram index: it walks
-- the todos newest first and tests each one's searchText. With searchText in
-- the index it walks, that test reads no table page, and only the todos that
-- match are looked up: a 2-character search of a million todos takes half the
-- time. The index it replaces is a prefix of this one, so every query that
-- used it uses this one instead. seq breaks ties in createdAt, as listing does.
CREATE INDEX todo_on_isDone_createdAt_seq_searchText ON todo(isDone, createdAt, seq, searchText);
DROP INDEX todo_on_isDone_createdAt;
