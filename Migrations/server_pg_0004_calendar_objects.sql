-- Todos as CalDAV resources (as server_0003 on SQLite): the name a CalDAV
-- client gave a todo's resource and the iCalendar text it last PUT. A todo
-- with no row is served as `<id>.ics`; a row outlives its todo's deletion,
-- so a sync-collection report names the resource that went.
CREATE TABLE calendar_object (
    account bigint NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    name text NOT NULL,
    id text NOT NULL,
    ics text NOT NULL,
    PRIMARY KEY (account, name),
    UNIQUE (account, id)
);
