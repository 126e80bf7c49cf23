#!/usr/bin/env python3
"""Deterministic benchmark data: the same N todos in each tool's own format.

    generate.py --size N [--seed 42] [--links] --format todo-json|taskwarrior|todotxt|server-sql|server-json --out FILE (a folder for taskwarrior)

Texts are 2 to 6 words drawn from mixed-case English and non-ASCII words
(Crème, Straße, ÉCOLE, Zürich...). Exactly 1% of todos (every 100th) end with
the word "Quokka", and no other word contains "qu", so the benchmark's queries
"qu" (2 characters) and "quokk" (5 characters) each match exactly 1%. Half of
the todos are done, chosen by the seeded generator. The 2-character query " b"
(a word starting with b) matches about 46% of the todos.

todo-json also carries planning fields, drawn by a second generator so the texts,
IDs and done marks stay those of the other formats: 30% of todos have a due date
(a fifth of them with a time), from 30 days before today to 60 days after, so
about a third of those are overdue; 20% have a priority; 25% have one or two tags
from a vocabulary of six (`home` on about 6% of todos). A third generator
gives 20% of todos a project (`home` and its sub-projects on about 8%), 5% a
scheduled date, and 2% a wait date (half of them still ahead, which hides them
from lists). With --links, a fourth makes 1% of todos a subtask and 0.5% blocked,
each by one of the 50 todos made just before it (so no link makes a cycle).
"""
import argparse
import collections
import datetime
import json
import os
import random
import uuid

WORDS = ["Buy", "milk", "Call", "bank", "Crème", "brûlée", "Straße", "ÉCOLE", "garden",
         "Invoice", "review", "Paper", "dentist", "Lunch", "Ödön", "naïve", "Zürich",
         "report", "email", "fix", "bike", "book", "flight", "tax", "plan"]
BASE = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
TAGS = ["home", "work", "errands", "bills", "health", "later"]
PRIORITIES = ["high", "medium", "low"]
PROJECTS = ["home", "home.garden", "home.kitchen", "homework", "work", "work.q4", "work.hiring", "travel", "health", "admin"]


def planning(size, seed, today):
    """Due date, priority and tags for each todo, from their own generator."""
    rng = random.Random(seed * 7919 + 1)
    for _ in range(size):
        due = priority = None
        tags = []
        if rng.random() < 0.30:
            day = today + datetime.timedelta(days=rng.randint(-30, 60))
            if rng.random() < 0.2:
                moment = datetime.datetime(day.year, day.month, day.day, rng.randint(0, 23), rng.choice([0, 15, 30, 45]),
                                           tzinfo=datetime.timezone.utc)
                due = iso(moment)
            else:
                due = day.isoformat()
        if rng.random() < 0.20:
            priority = rng.choice(PRIORITIES)
        if rng.random() < 0.25:
            tags = sorted(set(rng.choice(TAGS) for _ in range(rng.randint(1, 2))))
        yield due, priority, tags


def projects(size, seed, today):
    """Project, scheduled and wait dates for each todo, from a generator of their own."""
    rng = random.Random(seed * 104729 + 3)
    for _ in range(size):
        project = rng.choice(PROJECTS) if rng.random() < 0.20 else None
        scheduled = (today + datetime.timedelta(days=rng.randint(-20, 20))).isoformat() if rng.random() < 0.05 else None
        wait = (today + datetime.timedelta(days=rng.choice([-5, 5]))).isoformat() if rng.random() < 0.02 else None
        yield project, scheduled, wait


def links(size, seed, wanted=True):
    """How many todos back each todo's parent and blocker are (None: none), from a fourth generator."""
    rng = random.Random(seed * 15485863 + 5)
    for i in range(size):
        if not wanted:
            yield None, None
            continue
        parent = rng.randint(1, 50) if i >= 50 and rng.random() < 0.01 else None
        blocker = rng.randint(1, 50) if i >= 50 and rng.random() < 0.005 else None
        yield parent, blocker


def todos(size, seed):
    rng = random.Random(seed)
    for i in range(size):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6)))
        if i % 100 == 7:
            text += " Quokka"
        done = rng.random() < 0.5
        created = BASE + datetime.timedelta(seconds=30 * i)
        todo_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        yield todo_id, text, done, created


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def write_todo_json(out, rows, fields, more, linked):
    out.write("[\n")
    recent = collections.deque(maxlen=50)
    for n, ((todo_id, text, done, created), (due, priority, tags), (project, scheduled, wait), (parent, blocker)) \
            in enumerate(zip(rows, fields, more, linked)):
        item = {"id": todo_id, "text": text, "done": done, "createdAt": iso(created),
                "updatedAt": iso(created), "completedAt": iso(created) if done else None,
                "due": due, "priority": priority, "tags": tags}
        if project:
            item["project"] = project
        if scheduled:
            item["scheduled"] = scheduled
        if wait:
            item["wait"] = wait
        if parent:
            item["parent"] = recent[-parent]
        if blocker:
            item["blockedBy"] = [recent[-blocker]]
        recent.append(todo_id)
        out.write(("," if n else "") + json.dumps(item, ensure_ascii=False) + "\n")
    out.write("]\n")


def write_taskwarrior(folder, rows):
    # Taskwarrior 2.6's data files: one [key:"value" ...] line per task,
    # pending tasks in pending.data, completed ones in completed.data.
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "pending.data"), "w", encoding="utf-8") as pending, \
            open(os.path.join(folder, "completed.data"), "w", encoding="utf-8") as completed:
        for todo_id, text, done, created in rows:
            epoch = int(created.timestamp())
            status = "completed" if done else "pending"
            end = f' end:"{epoch}"' if done else ""
            description = text.replace('"', '&dquot;')
            line = f'[description:"{description}"{end} entry:"{epoch}" modified:"{epoch}" status:"{status}" uuid:"{todo_id}"]\n'
            (completed if done else pending).write(line)


def write_todotxt(out, rows):
    for _, text, done, created in rows:
        day = created.strftime("%Y-%m-%d")
        out.write(f"x {day} {day} {text}\n" if done else f"{day} {text}\n")


def write_server_json(out, rows):
    # The json-server todo shape, for Benchmarks/json_server.py.
    json.dump([{"id": todo_id, "title": text, "completed": done} for todo_id, text, done, _ in rows],
              out, ensure_ascii=False)


def write_server_sql(out, rows):
    # Rows for todo-server's `item` table, in the single list (account 0; see
    # Migrations/server_0001_create_item.sql and server_0002_accounts.sql).
    out.write("BEGIN;\n")
    for seq, (todo_id, text, done, created) in enumerate(rows, start=1):
        millis = int(created.timestamp() * 1000)
        body = json.dumps({"id": todo_id, "title": text, "completed": done,
                           "version": 1, "updatedAt": iso(created)}, ensure_ascii=False)
        body = body.replace("'", "''")
        out.write(f"INSERT INTO item(seq, account, id, body, version, updatedAt, changeSeq, deleted) "
                  f"VALUES ({seq}, 0, '{todo_id}', '{body}', 1, {millis}, {seq}, 0);\n")
    out.write("UPDATE account SET lastChangeSeq = (SELECT max(changeSeq) FROM item WHERE account = 0) WHERE id = 0;\n"
              "COMMIT;\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--format", required=True, choices=["todo-json", "taskwarrior", "todotxt", "server-sql", "server-json"])
    parser.add_argument("--out", required=True)
    parser.add_argument("--links", action="store_true", help="make 1%% of todos subtasks and 0.5%% blocked (todo-json)")
    parser.add_argument("--today", help="the day due dates are drawn around (YYYY-MM-DD; default: today)")
    args = parser.parse_args()
    today = datetime.date.fromisoformat(args.today) if args.today else datetime.date.today()
    writers = {"todotxt": write_todotxt, "server-json": write_server_json, "server-sql": write_server_sql}
    if args.format == "taskwarrior":
        write_taskwarrior(args.out, todos(args.size, args.seed))
        return
    if args.format == "todo-json":
        with open(args.out, "w", encoding="utf-8") as out:
            write_todo_json(out, todos(args.size, args.seed), planning(args.size, args.seed, today),
                            projects(args.size, args.seed, today), links(args.size, args.seed, args.links))
        return
    with open(args.out, "w", encoding="utf-8") as out:
        writers[args.format](out, todos(args.size, args.seed))


if __name__ == "__main__":
    main()
