#!/usr/bin/env python3
"""Many accounts for a todo-server benchmark: SQL that creates them, each with a
token and its own todos t1..tN (feed positions 1..N), for SQLite or PostgreSQL,
and the tokens, one per line, for Benchmarks/mixed.lua.

    accounts.py --accounts 1000 --todos 100 --dialect sqlite --sql OUT.sql --tokens OUT.txt \
        [--lists LISTS.txt]

Tokens are stored as the server stores them: their SHA-256.

With --lists, the accounts also share lists, as families do: each five
accounts (user1..user5, user6..user10, ...) are each in three lists of five
members: the first three of them own one each (`family`: their todos
t1..t20), shared with the other four, who have joined it. LISTS.txt has a
line per account, as the tokens: the paths of the three lists it is in
(`/lists/user1/family ...`), for Benchmarks/mixed.lua.
"""
import argparse
import hashlib
import random
import string


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--accounts", type=int, required=True)
    parser.add_argument("--todos", type=int, required=True)
    parser.add_argument("--dialect", choices=["sqlite", "postgres"], required=True)
    parser.add_argument("--sql", required=True)
    parser.add_argument("--tokens", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lists", help="also share lists, and write each account's list paths here")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    alphabet = string.ascii_letters + string.digits
    tokens = ["todo_" + "".join(rng.choice(alphabet) for _ in range(40)) for _ in range(args.accounts)]
    with open(args.tokens, "w") as out:
        out.writelines(token + "\n" for token in tokens)
    now = 1795253400000
    n, t = args.accounts, args.todos
    with open(args.sql, "w") as out:
        out.write("BEGIN;\n")
        if args.dialect == "sqlite":
            out.write("".join(f"INSERT INTO account (id, name, createdAt, lastChangeSeq) VALUES ({i}, 'user{i}', {now}, {t});\n"
                              for i in range(1, n + 1)))
            out.write("".join(f"INSERT INTO accessToken (account, label, hash, createdAt) VALUES "
                              f"({i}, 'bench', X'{hashlib.sha256(token.encode()).hexdigest()}', {now});\n"
                              for i, token in enumerate(tokens, 1)))
            out.write(f"""WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < {t})
INSERT INTO item (account, id, body, version, updatedAt, changeSeq)
SELECT a.id, 't' || g.n, json_object('id', 't' || g.n, 'title', 'todo number ' || g.n,
    'completed', json(CASE WHEN g.n % 2 = 0 THEN 'true' ELSE 'false' END), 'version', 1,
    'updatedAt', '2026-11-21T09:30:00.000Z'), 1, {now}, g.n
FROM account AS a, g WHERE a.id > 0;
""")
        else:
            out.write("".join(f"INSERT INTO account (id, name, created_at, last_change_seq) VALUES ({i}, 'user{i}', {now}, {t});\n"
                              for i in range(1, n + 1)))
            out.write("".join(f"INSERT INTO access_token (account, label, hash, created_at) VALUES "
                              f"({i}, 'bench', '\\x{hashlib.sha256(token.encode()).hexdigest()}', {now});\n"
                              for i, token in enumerate(tokens, 1)))
            out.write(f"""INSERT INTO item (account, id, body, version, updated_at, change_seq)
SELECT a.id, 't' || g, jsonb_build_object('id', 't' || g, 'title', 'todo number ' || g, 'completed', g % 2 = 0,
    'version', 1, 'updatedAt', '2026-11-21T09:30:00.000Z'), 1, {now}, g
FROM account AS a, generate_series(1, {t}) AS g WHERE a.id > 0;
SELECT setval(pg_get_serial_sequence('account', 'id'), {n});
""")
        if args.lists:
            write_lists(out, args)
        out.write("COMMIT;\n")


# How many todos of an owner (t1..tN) are on the list it owns.
LIST_TODOS = 20
GROUP = 5
LISTS_PER_GROUP = 3


def write_lists(out, args):
    """The shares of --lists, in SQL, and each account's list paths."""
    n = args.accounts
    owners = [i for i in range(1, n + 1) if (i - 1) % GROUP < LISTS_PER_GROUP]
    # The list's todos first, so no share is there yet to record a move.
    if args.dialect == "sqlite":
        out.write(f"UPDATE item SET body = json_set(body, '$.project', 'family') "
                  f"WHERE account IN ({','.join(map(str, owners))}) AND changeSeq <= {LIST_TODOS};\n")
        table, columns = "listShare", "(owner, list, member, role, joinedAs, createdAt)"
    else:
        out.write(f"UPDATE item SET body = jsonb_set(body, '{{project}}', '\"family\"') "
                  f"WHERE account IN ({','.join(map(str, owners))}) AND change_seq <= {LIST_TODOS};\n")
        table, columns = "list_share", "(owner, list, member, role, joined_as, created_at)"
    paths = {i: [] for i in range(1, n + 1)}
    for owner in owners:
        group = range(owner - (owner - 1) % GROUP, min(owner - (owner - 1) % GROUP + GROUP, n + 1))
        for member in group:
            paths[member].append(f"/lists/user{owner}/family")
            if member != owner:
                out.write(f"INSERT INTO {table} {columns} VALUES ({owner}, 'family', {member}, 'editor', "
                          f"'family-user{owner}', 1795253400000);\n")
    with open(args.lists, "w") as lists:
        lists.writelines(" ".join(paths[i]) + "\n" for i in range(1, n + 1))


if __name__ == "__main__":
    main()
