-- When each unconfirmed write was sent and answered, on one count of answers
-- that only grows: `sentAfter` is how many answers had come when it was sent,
-- `answered` its own answer's number. Creates go out several at a time, so
-- their answers may come in another order than the server wrote them in (the
-- rowid order 0006 relied on); what is known for sure is that a create
-- answered before another was sent was written before it. A create missing
-- from a list is lost in a restart only if no create of ours still listed
-- could have been written after it (`SyncService.lostCreates`).
ALTER TABLE syncUnconfirmed ADD COLUMN sentAfter INTEGER;
ALTER TABLE syncUnconfirmed ADD COLUMN answered INTEGER;
-- Those recorded before: one after another, as 0006 took them.
UPDATE syncUnconfirmed SET sentAfter = rowid, answered = rowid;
