-- What the last import of each todo saw, as a digest of each field (8 bytes
-- a field, in `TodoField`'s order, `ImportBase`) and when the file's todo last
-- changed, not the whole todo as JSON (0017 as it was first written, which
-- some databases ran before 0017 took the digest form): a fifth of the size, and an
-- import of 100,000 todos 1.07x the time of one that remembers nothing, not
-- 1.28x (BENCHMARKS.md, "Sharp edges, second week").
--
-- Whichever form a database's 0017 made, its bases are dropped and the table
-- made anew: JSON bases cannot be converted here (a digest is computed in Swift). An import run again after this treats each todo as one
-- no import brought: a field that differs is taken if the file's todo is
-- later, and one edited here is reported as a conflict (`ImportMerge`).
DROP TABLE importBase;

CREATE TABLE importBase (
    todoId TEXT NOT NULL,
    step INTEGER NOT NULL,
    -- milliseconds since 1970, UTC
    updatedAt INTEGER NOT NULL,
    fields BLOB NOT NULL,
    PRIMARY KEY (todoId, step)
) STRICT, WITHOUT ROWID;

CREATE INDEX importBase_on_step ON importBase(step);
