-- Todos as CalDAV resources: the name a CalDAV client gave a todo's resource
-- and the iCalendar text it last PUT, whose lines no mapping reads (alarms,
-- X- properties, a client's sort order) are served back byte for byte. A todo
-- with no row here is served as `<id>.ics`, its VTODO made from its fields.
-- A row outlives its todo's deletion, so a sync-collection report names the
-- resource that went.
CREATE TABLE calendarObject (
    account INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    -- the todo's id (the VTODO's UID)
    id TEXT NOT NULL,
    ics TEXT NOT NULL,
    PRIMARY KEY (account, name),
    UNIQUE (account, id)
) STRICT;
