-- The todo's JSON object at the version each CalDAV resource's stored text
-- was written (as server_0005 on SQLite): the properties rewritten over the
-- text once the todo changes are those whose field differs from this
-- object's. A row written before this migration has none.
ALTER TABLE calendar_object ADD COLUMN body text;
