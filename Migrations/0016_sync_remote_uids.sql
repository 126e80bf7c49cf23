-- The UID a CalDAV server knows an item by, where it is not the todo's
-- UUID in lower case (a numeric UID an Android app wrote, an upper-case
-- UUID from Apple's apps, `something@host`): a RELATED-TO another app
-- writes names the task by it, and a link `todo` writes must name it so
-- too. NULL: the UID is the todo's id.
ALTER TABLE syncBase ADD COLUMN remoteUID TEXT;
