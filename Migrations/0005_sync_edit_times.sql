-- When each synced field was last edited, so a conflict is settled by when
-- each side's edit was made rather than by when it reached the server.

-- The edit times the server's item carried at the last sync (milliseconds
-- since 1970, UTC; NULL: it carried none). A server item whose field changed
-- while its edit time stayed as recorded here was changed by a client that
-- leaves no such trace: the change counts as made when a sync first saw it.
ALTER TABLE syncBase ADD COLUMN textEditedAt INTEGER;
ALTER TABLE syncBase ADD COLUMN doneEditedAt INTEGER;

-- The edit times a conflict compared, so its history says which was newer.
ALTER TABLE syncConflict ADD COLUMN localEditedAt INTEGER;
ALTER TABLE syncConflict ADD COLUMN remoteEditedAt INTEGER;
