-- The version of its todo at which each CalDAV resource's stored text was
-- written (as server_0004 on SQLite): served as it is while the todo stays
-- there. A row written before this migration gets 0, which no todo has: its
-- text is rewritten from the todo's fields the next time it is served.
ALTER TABLE calendar_object ADD COLUMN version bigint NOT NULL DEFAULT 0;
