-- The trigram index keeps no per-todo token counts (columnsize = 0). Nothing
-- ranks search results by them, and keeping them cost a row in
-- todoSearch_docsize for every todo: an insert per `todo add`, and half the
-- time of indexing a first sync of 100,000 todos. Matching is unchanged. The
-- triggers on `todo` name the index and keep feeding the new one; it is
-- filled again from the todos, which a million todos take a second or two.
DROP TABLE todoSearch;

CREATE VIRTUAL TABLE todoSearch USING fts5(
    searchText,
    content = 'todo',
    content_rowid = 'seq',
    tokenize = 'trigram case_sensitive 1',
    detail = 'none',
    columnsize = 0
);

INSERT INTO todoSearch(todoSearch) VALUES ('rebuild');
