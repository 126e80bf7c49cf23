-- What a shared list's members are served (server_0006): its owner's todos
-- on that list, and the departures of those that left it.

-- The list each todo is on: the top-level part of its `project` (the text
-- before the first dot, spaces trimmed), or `inbox` when it has none (no
-- project, one that is not text, or an empty one); a tombstone is on no
-- list. Read off the body, so no write sets it and none can get it wrong.
ALTER TABLE item ADD COLUMN list TEXT GENERATED ALWAYS AS (
    CASE WHEN deleted = 0 THEN coalesce(nullif(
        substr(trim(CASE json_type(body, '$.project') WHEN 'text' THEN body ->> '$.project' END, ' ') || '.', 1,
            instr(trim(CASE json_type(body, '$.project') WHEN 'text' THEN body ->> '$.project' END, ' ') || '.', '.') - 1),
        ''), 'inbox') END
) VIRTUAL;

-- A list's todos, and its change feed, without a scan of the account's.
CREATE INDEX item_on_account_list_changeSeq ON item(account, list, changeSeq);

-- The todos that left a shared list (moved to another list, or deleted),
-- at the change that took them out: a member's feed reports each as
-- deleted, and says nothing else of it. A todo that comes back loses its
-- row; rows go with the tombstones purged (a cursor before them is 410).
-- Kept only for a list shared with someone (or invited): a member joins
-- with a whole first read, so earlier departures are never asked for.
CREATE TABLE listDeparture (
    account INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    list TEXT NOT NULL,
    id TEXT NOT NULL,
    changeSeq INTEGER NOT NULL,
    PRIMARY KEY (account, list, id)
) STRICT;

CREATE INDEX listDeparture_on_account_list_changeSeq ON listDeparture(account, list, changeSeq);

CREATE TRIGGER item_leaves_shared_list AFTER UPDATE OF body, deleted ON item
WHEN old.list IS NOT NULL AND old.list IS NOT new.list
    AND EXISTS (SELECT 1 FROM listShare WHERE owner = old.account AND list = old.list)
BEGIN
    INSERT INTO listDeparture (account, list, id, changeSeq) VALUES (old.account, old.list, old.id, new.changeSeq)
    ON CONFLICT (account, list, id) DO UPDATE SET changeSeq = excluded.changeSeq;
END;

CREATE TRIGGER item_returns_to_list AFTER UPDATE OF body, deleted ON item
WHEN new.list IS NOT NULL AND old.list IS NOT new.list
BEGIN
    DELETE FROM listDeparture WHERE account = new.account AND list = new.list AND id = new.id;
END;
