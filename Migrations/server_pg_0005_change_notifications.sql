-- Live clients (`GET /todos/events`): every commit that moves an account's
-- change counter sends a notification on the channel `todo_changes` naming
-- the account, whichever server instance wrote it. PostgreSQL folds the same
-- payload sent twice in one transaction, so a batch of writes is one
-- notification; the listening server reads the counter itself.
CREATE FUNCTION todo_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('todo_changes', NEW.id::text);
    RETURN NULL;
END
$$;

CREATE TRIGGER account_change_notify AFTER UPDATE OF last_change_seq ON account
FOR EACH ROW WHEN (NEW.last_change_seq IS DISTINCT FROM OLD.last_change_seq)
EXECUTE FUNCTION todo_notify_change();
