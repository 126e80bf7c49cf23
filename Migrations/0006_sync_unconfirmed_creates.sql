-- Todos whose create this replica sent to a json-server-style server and that
-- no list from it has shown since, in the order they were sent (rowid). A
-- server that writes its file a moment after it answers (json-server writes
-- db.json after the response) can lose such creates in a restart: the latest
-- ones, never an earlier one while keeping a later one. So when the latest of
-- them are all missing from a list, they are sent again rather than taken as
-- deleted on the server; one missing while a later one is still there was
-- deleted by another client.
CREATE TABLE syncUnconfirmed (
    todoId TEXT NOT NULL UNIQUE
) STRICT;
