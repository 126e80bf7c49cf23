-- The todos a list hides at some moment: waiting ones (their wait date not
-- reached) and unfinished ones past their until date. `todo status` and the
-- view's header count what the lists list (`selectCounts`): every todo less
-- these, counted from this index, which holds only the few todos with a wait
-- or until date, not a scan of all of them.
CREATE INDEX todo_with_wait_or_until ON todo(isDone, wait, until) WHERE wait IS NOT NULL OR until IS NOT NULL;
