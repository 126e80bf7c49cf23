-- One account's single writes that arrive together, in one call: one round
-- trip, one transaction and one commit for all of them (WriteGroups in the
-- server); a write alone is a call of its own. A procedure, so that it
-- commits before it answers: a function's rows would reach the server before
-- its statement's commit had ended. Each write is answered as it would be
-- alone, one after another in the order given; the account's counter row is
-- locked first, so every check below sees the todos as they are, and is
-- bumped once at the end.
--
-- The new objects are built by the same expressions as the single statements
-- (PostgresWriteStatements.swift); WriteGroupEquivalenceTests compares the two.
--
-- Per write k: p_kinds[k] is create, replace, patch or delete; p_ids[k] the
-- todo's id as stored; p_any_version[k] true without an If-Match (or with
-- `*`), else p_versions[k] the versions it names, as an array literal.
-- p_payloads[k] is the JSON sent (creates, replaces, patches); p_id_jsons[k] the
-- id as the body's JSON value (creates); p_times[k] and p_ms[k] the write's
-- time as served and in milliseconds; p_purge_cutoffs[k] the age before
-- which a tombstone is due to be purged (deletes).
--
-- It answers once committed, an element per write in each array: the outcome,
-- `ok` (body and version as written; for a delete, the body as it was),
-- `missing` (404), `mismatch` (412; version is the live one), `conflict` (409)
-- or `gone` (the account was removed); the body and the version ('' and 0
-- where there is none) and whether tombstones are due to be purged. Called
-- outside a transaction (CALL … with NULL for the four INOUT arrays), as it
-- commits.
CREATE PROCEDURE todo_write_group(
    p_account bigint,
    p_kinds text[],
    p_ids text[],
    p_any_version boolean[],
    p_versions text[],
    p_payloads text[],
    p_id_jsons text[],
    p_times text[],
    p_ms bigint[],
    p_purge_cutoffs bigint[],
    INOUT outcomes text[],
    INOUT bodies text[],
    INOUT versions bigint[],
    INOUT purge_dues boolean[]
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    outcome text;
    body text;
    version bigint;
    purge_due boolean;
    next_seq bigint;
    first_seq bigint;
    live_version bigint;
    k integer;
    n integer := coalesce(array_length(p_kinds, 1), 0);
BEGIN
    outcomes := '{}';
    bodies := '{}';
    versions := '{}';
    purge_dues := '{}';
    SELECT a.last_change_seq INTO next_seq FROM account AS a WHERE a.id = p_account FOR UPDATE;
    IF NOT FOUND THEN
        outcomes := array_fill('gone'::text, ARRAY[n]);
        bodies := array_fill(''::text, ARRAY[n]);
        versions := array_fill(0::bigint, ARRAY[n]);
        purge_dues := array_fill(false, ARRAY[n]);
        RETURN;
    END IF;
    first_seq := next_seq;
    FOR k IN 1 .. n LOOP
        body := NULL;
        version := NULL;
        purge_due := false;
        outcome := 'ok';
        IF p_kinds[k] = 'create' THEN
            IF EXISTS (SELECT 1 FROM item AS i WHERE i.account = p_account AND i.id = p_ids[k] AND NOT i.deleted) THEN
                outcome := 'conflict';
            ELSE
                next_seq := next_seq + 1;
                INSERT INTO item AS i (account, id, body, version, updated_at, change_seq, deleted)
                VALUES (p_account, p_ids[k], (p_payloads[k]::jsonb - 'version' - 'updatedAt')
                        || jsonb_build_object('id', p_id_jsons[k]::jsonb, 'version', 1, 'updatedAt', p_times[k]),
                    1, p_ms[k], next_seq, false)
                ON CONFLICT (account, id) DO UPDATE SET body = excluded.body || jsonb_build_object('version', i.version + 1),
                    version = i.version + 1, updated_at = excluded.updated_at, change_seq = excluded.change_seq, deleted = false
                WHERE i.deleted
                RETURNING i.body::text, i.version INTO body, version;
            END IF;
        ELSIF p_kinds[k] = 'delete' THEN
            SELECT i.version, i.body::text INTO live_version, body FROM item AS i
                WHERE i.account = p_account AND i.id = p_ids[k] AND NOT i.deleted;
            IF live_version IS NULL THEN
                outcome := 'missing';
            ELSIF NOT p_any_version[k] AND live_version <> ALL (p_versions[k]::bigint[]) THEN
                outcome := 'mismatch';
                body := NULL;
                version := live_version;
            ELSE
                next_seq := next_seq + 1;
                UPDATE item AS i SET body = jsonb_build_object('id', i.body -> 'id', 'version', i.version + 1,
                        'updatedAt', p_times[k], 'deleted', true),
                    version = i.version + 1, updated_at = p_ms[k], change_seq = next_seq, deleted = true
                WHERE i.account = p_account AND i.id = p_ids[k] AND NOT i.deleted
                RETURNING i.version INTO version;
                purge_due := EXISTS (SELECT 1 FROM item AS i
                    WHERE i.account = p_account AND i.deleted AND i.updated_at < p_purge_cutoffs[k]);
            END IF;
        ELSE
            -- A PUT or PATCH changes the todo when it matches; only when it
            -- changed nothing is the todo looked at again, to say why.
            next_seq := next_seq + 1;
            IF p_kinds[k] = 'replace' THEN
                UPDATE item AS i SET body = (p_payloads[k]::jsonb - 'version' - 'updatedAt' - 'id')
                        || jsonb_build_object('id', i.body -> 'id', 'version', i.version + 1, 'updatedAt', p_times[k]),
                    version = i.version + 1, updated_at = p_ms[k], change_seq = next_seq
                WHERE i.account = p_account AND i.id = p_ids[k] AND NOT i.deleted
                    AND (p_any_version[k] OR i.version = ANY (p_versions[k]::bigint[]))
                RETURNING i.body::text, i.version INTO body, version;
            ELSIF p_kinds[k] = 'patch' THEN
                UPDATE item AS i SET body = i.body || (p_payloads[k]::jsonb - 'id' - 'version' - 'updatedAt')
                        || jsonb_build_object('version', i.version + 1, 'updatedAt', p_times[k]),
                    version = i.version + 1, updated_at = p_ms[k], change_seq = next_seq
                WHERE i.account = p_account AND i.id = p_ids[k] AND NOT i.deleted
                    AND (p_any_version[k] OR i.version = ANY (p_versions[k]::bigint[]))
                RETURNING i.body::text, i.version INTO body, version;
            ELSE
                RAISE EXCEPTION 'todo_write_group: unknown kind %', p_kinds[k];
            END IF;
            IF NOT FOUND THEN
                next_seq := next_seq - 1;
                SELECT i.version INTO live_version FROM item AS i
                    WHERE i.account = p_account AND i.id = p_ids[k] AND NOT i.deleted;
                IF live_version IS NULL THEN
                    outcome := 'missing';
                ELSE
                    outcome := 'mismatch';
                    version := live_version;
                END IF;
            END IF;
        END IF;
        outcomes := outcomes || outcome;
        bodies := bodies || coalesce(body, '');
        versions := versions || coalesce(version, 0);
        purge_dues := purge_dues || purge_due;
    END LOOP;
    IF next_seq > first_seq THEN
        UPDATE account AS a SET last_change_seq = next_seq WHERE a.id = p_account;
    END IF;
    COMMIT;
END
$$;
