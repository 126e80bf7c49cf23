-- What the last import of each todo saw (`ImportBase`): when the file's todo
-- last changed, and a digest of each field's value (8 bytes a field, in
-- `TodoField`'s order). A re-import changes only the fields the file changed
-- since (`ImportMerge`), so an edit made here since is kept.
--
-- `step` is the undo journal's number of the import that saw it. A base
-- whose import was undone is not read (undo takes the import back, its base
-- with it; redo brings both back), and it is deleted when a new change
-- drops the undone ones. A todo's base is its row with the highest step
-- that is not undone. Bases outlive the journal's trimming and the todo.
CREATE TABLE importBase (
    todoId TEXT NOT NULL,
    step INTEGER NOT NULL,
    -- milliseconds since 1970, UTC
    updatedAt INTEGER NOT NULL,
    fields BLOB NOT NULL,
    PRIMARY KEY (todoId, step)
) STRICT, WITHOUT ROWID;

CREATE INDEX importBase_on_step ON importBase(step);
