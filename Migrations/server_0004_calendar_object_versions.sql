-- The version of its todo at which each CalDAV resource's stored text was
-- written: while the todo stays at that version, the text is served as it
-- is; once the todo changes, the properties its fields change are rewritten
-- over it. A row written before this migration gets 0, which no todo has
-- (versions start at 1): its text is rewritten from the todo's fields the
-- next time it is served, keeping every line no mapping reads.
ALTER TABLE calendarObject ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
