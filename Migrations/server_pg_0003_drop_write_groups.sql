-- Each single write is now its own statement in its own transaction: the
-- procedure that ran one account's writes of the moment together (0002) served
-- one benchmark (one account's todo PATCHed from 32 connections) and no
-- workload people have. A server of this version or later never calls it.
DROP PROCEDURE IF EXISTS todo_write_group(
    bigint, text[], text[], boolean[], text[], text[], text[], text[], bigint[], bigint[],
    text[], text[], bigint[], boolean[]
);
