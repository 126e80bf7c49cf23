-- The UID a CalDAV server knows an item by (or the id a JSON server does),
-- where it is not the todo's UUID in lower case (a numeric UID an Android
-- app wrote, an upper-case UUID from Apple's apps, `something@host`): a
-- RELATED-TO another app writes names the task by it, and a link `todo`
-- writes must name it so too. NULL: the UID is the todo's id.
ALTER TABLE syncBase ADD COLUMN remoteUID TEXT;

-- Bases recorded before this column hold no UID: the next sync reads the
-- whole list once (as when a server forgets its sync token, or the list's
-- digest no longer matches), which records the UID of every item, not
-- only of those changed since.
DELETE FROM setting WHERE key IN ('sync.cursor', 'sync.listDigest');
