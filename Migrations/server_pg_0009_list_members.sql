-- What a shared list's members are served (server_pg_0008): its owner's
-- todos on that list, and the departures of those that left it. As
-- server_0007 on SQLite.

-- The list each todo is on: the top-level part of its `project` (the text
-- before the first dot, spaces trimmed), or `inbox` when it has none (no
-- project, one that is not text, or an empty one); a tombstone is on no
-- list. Read off the body, so no write sets it and none can get it wrong.
ALTER TABLE item ADD COLUMN list text GENERATED ALWAYS AS (
    CASE WHEN NOT deleted THEN coalesce(nullif(
        split_part(btrim(CASE jsonb_typeof(body -> 'project') WHEN 'string' THEN body ->> 'project' END, ' '), '.', 1),
        ''), 'inbox') END
) STORED;

-- A list's todos, and its change feed, without a scan of the account's.
CREATE INDEX item_on_account_list_change_seq ON item (account, list, change_seq);

-- The todos that left a shared list (moved to another list, or deleted),
-- at the change that took them out: a member's feed reports each as
-- deleted, and says nothing else of it. A todo that comes back loses its
-- row; rows go with the tombstones purged (a cursor before them is 410).
-- Kept only for a list shared with someone (or invited).
CREATE TABLE list_departure (
    account bigint NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    list text NOT NULL,
    id text NOT NULL,
    change_seq bigint NOT NULL,
    PRIMARY KEY (account, list, id)
);

CREATE INDEX list_departure_on_account_list_change_seq ON list_departure (account, list, change_seq);

CREATE FUNCTION item_list_departure() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.list IS NOT NULL AND EXISTS (SELECT 1 FROM list_share WHERE owner = OLD.account AND list = OLD.list) THEN
        INSERT INTO list_departure (account, list, id, change_seq) VALUES (OLD.account, OLD.list, OLD.id, NEW.change_seq)
        ON CONFLICT (account, list, id) DO UPDATE SET change_seq = excluded.change_seq;
    END IF;
    IF NEW.list IS NOT NULL THEN
        DELETE FROM list_departure WHERE account = NEW.account AND list = NEW.list AND id = NEW.id;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER item_list_departure AFTER UPDATE ON item
FOR EACH ROW WHEN (OLD.list IS DISTINCT FROM NEW.list)
EXECUTE FUNCTION item_list_departure();
