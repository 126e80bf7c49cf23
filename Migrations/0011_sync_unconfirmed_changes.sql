-- What kind of write each unconfirmed todo waits on. A CalDAV server may lose
-- an edit or a delete it acknowledged (restored from a backup that kept its
-- sync tokens), so those wait too, until a report names them: `change`. Only
-- a `create` missing from a full list is sent again as lost; a change missing
-- from one was deleted by another client.
ALTER TABLE syncUnconfirmed ADD COLUMN write TEXT NOT NULL DEFAULT 'create' CHECK (write IN ('create', 'change'));
