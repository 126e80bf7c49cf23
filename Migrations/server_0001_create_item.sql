-- The todo server's items: each one's JSON object exactly as served (the
-- client's fields, kept unchanged, plus `version` and `updatedAt`), beside the
-- columns the server queries. A deleted item stays as a tombstone
-- (`deleted = 1`, body '{}') until it is purged, so the change feed can
-- report the deletion.
CREATE TABLE item (
    seq INTEGER PRIMARY KEY,
    -- the id in string form: `"7"` and `7` are the same item
    id TEXT NOT NULL UNIQUE,
    body TEXT NOT NULL CHECK (json_valid(body)),
    -- 1 on creation, one more on every change, including deletion
    version INTEGER NOT NULL CHECK (version > 0),
    -- milliseconds since 1970, UTC
    updatedAt INTEGER NOT NULL,
    -- position in the change feed: the cursor value of this item's last change
    changeSeq INTEGER NOT NULL UNIQUE,
    deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
) STRICT;

-- Tombstones old enough to purge, without a scan.
CREATE INDEX item_on_deleted_updatedAt ON item(deleted, updatedAt);

-- One row: the change feed's counter, which never goes back, and the highest
-- change purged, below which a cursor can no longer be served.
CREATE TABLE feed (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    lastChangeSeq INTEGER NOT NULL,
    purgedThrough INTEGER NOT NULL
) STRICT;

INSERT INTO feed (id, lastChangeSeq, purgedThrough) VALUES (1, 0, 0);
