-- The todo's JSON object at the version each CalDAV resource's stored text
-- was written: what the text's mapped lines said, in the todo's own terms.
-- Once the todo changes, the properties rewritten over the text are those
-- whose field differs between this object and the todo's, so a value the
-- mapping reads differently (a category with a space, a DTSTART with a
-- TZID) is kept as the client wrote it unless it was edited. A row written
-- before this migration has none: its text is compared with the todo's
-- fields as before.
ALTER TABLE calendarObject ADD COLUMN body TEXT;
