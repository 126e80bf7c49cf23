#!/usr/bin/env python3
"""Prints the markdown table of a Benchmarks/run.sh run from its results folder."""
import glob
import json
import os
import platform
import subprocess
import sys

OPERATIONS = [
    ("add", "todo add"),
    ("done", "todo done ID"),
    ("list", "todo list (pending)"),
    ("query-2", "todo list --query qu"),
    ("query-5", "todo list --query quokk"),
    ("query-2-wide", "todo list --query \" b\" (46% of todos)"),
    ("due-overdue", "todo list --due overdue"),
    ("tag", "todo list --tag home"),
    ("not-tag", "todo list --not-tag home"),
    ("sort-due", "todo list --sort due"),
    ("query-2-limit-50", "todo list --query qu --limit 50 --json"),
    ("add-fields", "todo add with every field"),
    ("done-fields", "todo done ID, every field and a repeat"),
    ("import", "todo import of the data set into an empty database"),
    ("undo-import", "todo undo of that import"),
    ("export", "todo export (JSON, every todo)"),
    ("get-all", "GET /todos from todo-server (curl)"),
    ("first-sync-todo-server", "first todo sync from todo-server (floor: curl + sqlite3 load)"),
    ("noop-sync-todo-server", "todo sync, nothing to do, todo-server (floor: curl of the list)"),
    ("first-sync-json-server", "first todo sync from a json-server-style server (floor: curl + sqlite3 load)"),
    ("noop-sync-json-server", "todo sync, nothing to do, json-server-style (floor: curl of the list)"),
]
PEERS = ["taskwarrior", "todo.txt"]


def load(folder):
    medians = {}
    for path in glob.glob(os.path.join(folder, "*.json")):
        name, size, tool = os.path.basename(path)[:-5].split("@")
        try:
            with open(path) as file:
                medians[(name, int(size), tool)] = json.load(file)["results"][0]["median"]
        except (ValueError, KeyError, IndexError):
            continue  # a benchmark still running, or one that failed
    figures = []
    path = os.path.join(folder, "figures.jsonl")
    if os.path.exists(path):
        with open(path) as file:
            figures = [json.loads(line) for line in file if line.strip()]
    return medians, figures


def ms(seconds):
    return f"{seconds * 1000:.1f} ms" if seconds is not None else "–"


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as file:
            cpu = next(line.split(":", 1)[1].strip() for line in file if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    try:
        sqlite = subprocess.run(["sqlite3", "--version"], capture_output=True, text=True).stdout.split()[0]
    except OSError:
        sqlite = "?"
    return f"{platform.system()} {platform.release()}, {os.cpu_count()} cores, {cpu}, SQLite {sqlite}"


def main():
    medians, figures = load(sys.argv[1])
    print(f"Machine: {machine()}\n")
    if medians:
        print("| operation | todos | todo | sqlite3 (floor) | todo / floor | Taskwarrior | todo.txt | fastest peer / todo |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
    sizes = sorted({size for (_, size, _) in medians})
    for name, label in OPERATIONS:
        for size in sizes:
            ours = medians.get((name, size, "todo"))
            if ours is None:
                continue
            floor = medians.get((name, size, "sqlite3"))
            peers = [medians.get((name, size, peer)) for peer in PEERS]
            ratio = f"{ours / floor:.2f}x" if floor else "–"
            known = [p for p in peers if p is not None]
            speedup = f"{min(known) / ours:.0f}x faster" if known else "–"
            print(f"| {label} | {size:,} | {ms(ours)} | {ms(floor)} | {ratio} | {ms(peers[0])} | {ms(peers[1])} | {speedup} |")
    for name, label in (("add-in-turns", "todo add"), ("done-in-turns", "todo done ID")):
        timed = sorted((size, value) for (n, size, _), value in medians.items() if n == name)
        if len(timed) == 2:
            (small, first), (large, second) = timed
            print(f"\n{label} timed in turns, one run at each size alternately: {ms(first)} at {small:,} todos,"
                  f" {ms(second)} at {large:,} ({second / first - 1:+.0%}).")
    turns = [
        ("push-vs-pull", "push", "pull", "todo sync pushing {n:,} adds to an empty todo-server", "a first sync pulling {n:,} from todo-server"),
        ("push-json-server", "todo", "curl", "todo sync pushing {n:,} adds to a json-server-style server",
         "as many curl POSTs, 8 at a time on kept-alive connections"),
        ("first-sync-paged", "todo", "curl", "a first todo sync of {n:,} from a server paging 10 at a time (Link headers)",
         "one curl fetching every page"),
    ]
    for name, ours_tool, floor_tool, ours_label, floor_label in turns:
        for (n, size, tool), value in sorted(medians.items()):
            floor = medians.get((name, size, floor_tool))
            if n == name and tool == ours_tool and floor:
                print(f"\n{ours_label.format(n=size)}: {ms(value)}, against {ms(floor)} for {floor_label.format(n=size)}"
                      f" ({value / floor:.2f}x; timed in turns).")
    spawn = medians.get(("process-start", 0, "true"))
    if spawn is not None:
        print(f"\nStarting a process that does nothing (`/bin/true`) takes {ms(spawn)} here: no command takes less.")
        for name, label in (("add", "todo add"), ("done", "todo done ID")):
            for size in sizes:
                peer = medians.get((name, size, "todo.txt"))
                if peer is not None and size == max(s for (n, s, t) in medians if n == name and t == "todo.txt"):
                    floor = medians.get((name, size, "sqlite3"))
                    shell = f"; the sqlite3 shell doing the same SQL takes {ms(floor)}" if floor else ""
                    print(f"20x faster than todo.txt's {label} at {size:,} todos ({ms(peer)}) would mean {ms(peer / 20)},"
                          f" {peer / 20 / spawn:.1f}x the cost of starting a process{shell}.")
    if figures:
        print("\n| figure | todos | value |")
        print("|---|---:|---:|")
        by_name = {(f["name"], f["size"]): f for f in figures}
        for f in figures:
            tool = f" ({f['tool']})" if f.get("tool") in ("radicale", "todo-server") and f["name"].startswith(("caldav", "vdirsyncer")) else ""
            print(f"| {f['name']}{tool} | {f['size']:,} | {f['value']:,} {f['unit']} |")
        first = sorted((f["size"], float(f["value"])) for f in figures if f["name"] == "ui-first-frame")
        if len(first) >= 2:
            (small, a), (large, b) = first[0], first[-1]
            print(f"\ntodo ui's first frame at {large:,} todos is {b / a:.2f}x its first frame at {small:,}"
                  f" ({b:.1f} against {a:.1f} ms).")
        mcp = by_name.get(("mcp-list-query-2-limit-50", max(sizes, default=0)))
        cli = medians.get(("query-2-limit-50", max(sizes, default=0), "todo"))
        if mcp and cli:
            print(f"\nA list_todos round trip on a running todo mcp (query qu, limit 50) at {mcp['size']:,} todos:"
                  f" {float(mcp['value']):.1f} ms, {float(mcp['value']) / (cli * 1000):.2f}x todo list running the same SQL"
                  f" as a whole process ({ms(cli)}).")
        # CalDAV: todo-server beside Radicale on the same VTODOs (Benchmarks/caldav_bench.py).
        for name, label in (("caldav-query-all", "a calendar-query REPORT of every VTODO"),
                            ("caldav-sync-no-token", "a sync-collection with no token"),
                            ("caldav-sync-nothing-new", "a sync-collection with nothing new"),
                            ("caldav-first-request-after-start", "the first REPORT after a start"),
                            ("vdirsyncer-first-sync", "vdirsyncer's first sync")):
            pairs = {f["tool"]: float(f["value"]) for f in figures if f["name"] == name and f.get("tool") in ("radicale", "todo-server")
                     and f["size"] == max((g["size"] for g in figures if g["name"] == "caldav-query-all"), default=0)}
            if "radicale" in pairs and "todo-server" in pairs and pairs["todo-server"] > 0:
                print(f"\nCalDAV, {label}: todo-server {pairs['todo-server']:.1f} ms, Radicale {pairs['radicale']:.1f} ms"
                      f" ({pairs['radicale'] / pairs['todo-server']:.1f}x faster).")
        constant = [f for f in figures if f["name"] == "constant"]
        get_one = [f for f in figures if f["name"] == "get-one"]
        if constant and get_one and float(constant[0]["value"]) > 0:
            share = float(get_one[0]["value"]) / float(constant[0]["value"])
            print(f"\nGET /todos/:id serves {share:.0%} of the constant route's throughput.")


if __name__ == "__main__":
    main()
