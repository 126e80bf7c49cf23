-- The tags and blockers a sync sent for a todo, kept until the answer to that
-- write is recorded. A write the server stored whose answer was lost (a cut
-- connection, a killed sync) leaves the server holding these sets while the
-- base still holds the older ones; the next merge takes an element this
-- write added or removed as settled where the server agrees with it, so a
-- tag removed here since is not brought back as if the server had added it.
CREATE TABLE syncSetsInFlight (
    todoId TEXT PRIMARY KEY NOT NULL,
    -- a JSON array of strings, as todo.tags (NULL: none)
    tags TEXT,
    -- a JSON array of ids, as todo.blockedBy (NULL: none)
    blockedBy TEXT
) STRICT;

-- Writes to a CalDAV list sent again because a report from before them did
-- not name them and the server answered 404 (`syncUnconfirmed`): the server
-- lost them, or another client deleted them and the report left that out
-- (RFC 6578 lets a server omit what was created and deleted since a token).
-- A write is sent again once in a todo's life here; gone again, it was
-- deleted there. The row goes when the todo does.
CREATE TABLE syncResent (
    todoId TEXT PRIMARY KEY NOT NULL
) STRICT;
