-- Accounts: every todo belongs to one, and each has its own change feed.
--
-- Account 0 has no name: it is the one list served without accounts (no
-- token, or `--token` alone), and holds every todo written before accounts
-- existed. Named accounts are made by `todo-server user add`.
CREATE TABLE account (
    id INTEGER PRIMARY KEY,
    name TEXT UNIQUE CHECK ((id = 0) = (name IS NULL)),
    -- milliseconds since 1970, UTC
    createdAt INTEGER NOT NULL,
    -- this account's change feed: the counter, bumped in each write's
    -- transaction, and the highest change purged
    lastChangeSeq INTEGER NOT NULL DEFAULT 0,
    purgedThrough INTEGER NOT NULL DEFAULT 0
) STRICT;

INSERT INTO account (id, name, createdAt, lastChangeSeq, purgedThrough)
SELECT 0, NULL, 0, lastChangeSeq, purgedThrough FROM feed;

-- The items, now per account: ids and change numbers are unique within one.
CREATE TABLE accountItem (
    seq INTEGER PRIMARY KEY,
    account INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    -- the id in string form: `"7"` and `7` are the same item
    id TEXT NOT NULL,
    body TEXT NOT NULL CHECK (json_valid(body)),
    version INTEGER NOT NULL CHECK (version > 0),
    updatedAt INTEGER NOT NULL,
    changeSeq INTEGER NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
    UNIQUE (account, id),
    UNIQUE (account, changeSeq)
) STRICT;

INSERT INTO accountItem (seq, account, id, body, version, updatedAt, changeSeq, deleted)
SELECT seq, 0, id, body, version, updatedAt, changeSeq, deleted FROM item;

DROP TABLE item;
DROP TABLE feed;
ALTER TABLE accountItem RENAME TO item;

-- Tombstones old enough to purge, without a scan.
CREATE INDEX item_on_account_deleted_updatedAt ON item(account, deleted, updatedAt);

-- A bearer token of an account. Only the SHA-256 of the token is kept.
CREATE TABLE accessToken (
    id INTEGER PRIMARY KEY,
    account INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    label TEXT NOT NULL,
    hash BLOB NOT NULL UNIQUE,
    createdAt INTEGER NOT NULL,
    -- null: never expires
    expiresAt INTEGER,
    -- written at most once a minute
    lastUsedAt INTEGER,
    UNIQUE (account, label)
) STRICT;

-- Failed authentications per client address, in windows of a minute, shared
-- by every server on this database.
CREATE TABLE authFailure (
    address TEXT PRIMARY KEY,
    windowStart INTEGER NOT NULL,
    failures INTEGER NOT NULL
) STRICT;
