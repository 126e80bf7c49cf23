-- The tags the server's copy held that no tag of ours can be (a category
-- with a space another app wrote, say), as the base recorded them: a sync
-- that sends our tags sends these beside them, so an edit of our tags never
-- drops another app's. Without this, a todo whose server copy was not read
-- again (todo-server's change feed names only what changed) lost them.
-- A JSON array of strings, as syncBase.tags (NULL: none).
ALTER TABLE syncBase ADD COLUMN foreignTags TEXT;
