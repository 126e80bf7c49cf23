-- Lists shared between accounts (as server_0006 on SQLite): a list is a
-- todo's top-level project, owned by the account whose todos it holds; its
-- owner invites another account as an editor or a viewer, who joins it
-- under a name of its own (`joined_as`, null while the invitation waits).
CREATE TABLE list_share (
    owner bigint NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    list text NOT NULL,
    member bigint NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    role text NOT NULL CHECK (role IN ('editor', 'viewer')),
    joined_as text,
    -- milliseconds since 1970, UTC
    created_at bigint NOT NULL,
    PRIMARY KEY (owner, list, member),
    UNIQUE (member, joined_as),
    CHECK (owner <> member)
);

-- The lists shared with an account.
CREATE INDEX list_share_on_member ON list_share (member);
