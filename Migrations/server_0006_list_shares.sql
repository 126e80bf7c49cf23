-- Lists shared between accounts. A list is a todo's top-level project
-- (`shopping` for `shopping` and `shopping.weekly`; `inbox` for a todo
-- with no project), owned by the account whose todos it holds. Its owner
-- invites another account (`role`: an editor writes, a viewer only reads);
-- the invited account joins it under a name of its own (`joinedAs`, null
-- while the invitation waits), unique among the lists it joined. Either
-- account removed, the share goes with it.
CREATE TABLE listShare (
    owner INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    list TEXT NOT NULL,
    member INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('editor', 'viewer')),
    joinedAs TEXT,
    -- milliseconds since 1970, UTC
    createdAt INTEGER NOT NULL,
    PRIMARY KEY (owner, list, member),
    UNIQUE (member, joinedAs),
    CHECK (owner <> member)
) STRICT;

-- The lists shared with an account.
CREATE INDEX listShare_on_member ON listShare(member);
