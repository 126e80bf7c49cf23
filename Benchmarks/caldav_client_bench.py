#!/usr/bin/env python3
"""todo sync with a CalDAV list on Radicale, beside vdirsyncer and curl (issue 27).

Radicale holds N VTODOs (the items of caldav_bench.py, written into its storage
folder) in the list alice/tasks, with a login (htpasswd, plain). Then, each
measurement in turns (A B C A B C ..., medians):

1. A first sync of the list into an empty place: `todo sync` into a new database;
   vdirsyncer's `sync` of a freshly discovered pair into an empty folder (the
   `discover` untimed); and the floor: curl sending todo's calendar-query REPORT
   (with --compressed, as todo asks for gzip) to a file, a Python script taking
   each item's href, etag, UID, SUMMARY, STATUS, DUE, PRIORITY and CATEGORIES out
   of it (regular expressions, no XML parser) into a CSV file, and the sqlite3
   shell creating a table (href the primary key) and loading the CSV with
   .import: the sum of the three processes' times. (todo also asks for the list's
   sync-token first, a PROPFIND that Radicale answers in about as long as the
   REPORT at 10,000 items: measured beside, `floor_with_token`, not a target.)
2. A sync with nothing to do, right after a sync: `todo sync`, vdirsyncer's
   `sync`, and the floor: one curl of a sync-collection REPORT with the latest
   token (--compressed).
3. Pushing adds: a database synced with the list gets --adds new todos (todo
   import of a todo.txt file, untimed), then one timed `todo sync`; beside curl
   PUTting as many .ics bodies like todo's (new UIDs each round, If-None-Match: *)
   8 at a time (--parallel --parallel-max 8). Each round starts from the same
   state: the synced database copied back, the pushed items taken out of
   Radicale's storage folder with their cache entries (the list's sync-token is
   checked to be the one before the round).

The syncs with nothing to do take --rounds rounds; the first syncs and the
pushes min(--rounds, 3): Radicale checks a PUT's UID against every item of the
list, about 0.3 s a PUT at 10,000 items, one at a time, so a round of 1,000
pushes takes minutes for todo and for curl alike. Before any timing, Radicale
reads every item once (its first request after a start builds its cache) and
answers one sync-token (which writes its history entry of every item): a
server in use has done both. curl's PUTs go without `Expect: 100-continue`
(curl would wait 1 s for each, Radicale never sends 100). Radicale's requests
are counted in its log (level info; `radicale_s`: the seconds its log gives
them, summed over requests that may overlap). Prints one JSON object; exits
non-zero when a command fails or does not do what it should (a sync that does
not pull every todo, pushes too few, or errors).

Usage: caldav_client_bench.py --todo PATH --venv DIR --work DIR [--size N] [--rounds K] [--adds N] [--figures FILE]
"""
import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
import uuid

sys.dont_write_bytecode = True  # no __pycache__ beside caldav_bench.py
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from caldav_bench import free_port, vtodo, wait_port  # noqa: E402

USER, PASSWORD = "alice", "bench-secret"

# The bodies todo sends (Sources/TodoSync/CalDAV/CalDAVCollection+Requests.swift).
QUERY = ('<?xml version="1.0" encoding="utf-8"?>\n'
         '<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\n'
         '  <d:prop><d:getetag/><c:calendar-data/></d:prop>\n'
         '  <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter>\n'
         '</c:calendar-query>')
LIST_PROPERTIES = ('<?xml version="1.0" encoding="utf-8"?>\n'
                   '<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">\n'
                   '  <d:prop><d:resourcetype/><c:supported-calendar-component-set/><d:sync-token/><cs:getctag/></d:prop>\n'
                   '</d:propfind>')
SYNC_TOKEN = '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:sync-token/></d:prop></d:propfind>'


def sync_body(token):
    return ('<?xml version="1.0" encoding="utf-8"?>\n<d:sync-collection xmlns:d="DAV:">\n'
            '  <d:sync-token>%s</d:sync-token><d:sync-level>1</d:sync-level>\n'
            '  <d:prop><d:getetag/></d:prop>\n</d:sync-collection>' % token)


# The floor's loader: the curl output in, one CSV row per VTODO out.
EXTRACT = r'''import csv, html, re, sys
response = re.compile(r"<(?:[\w-]+:)?response\b.*?</(?:[\w-]+:)?response>", re.S)
href = re.compile(r"<(?:[\w-]+:)?href>(.*?)</", re.S)
etag = re.compile(r"<(?:[\w-]+:)?getetag>(.*?)</", re.S)
data = re.compile(r"<(?:[\w-]+:)?calendar-data[^>]*>(.*?)</(?:[\w-]+:)?calendar-data>", re.S)
with open(sys.argv[1], encoding="utf-8") as source:
    text = source.read()
with open(sys.argv[2], "w", newline="", encoding="utf-8") as out:
    rows = csv.writer(out)
    for match in response.finditer(text):
        block = match.group(0)
        calendar = data.search(block)
        if not calendar:
            continue
        fields, inside = {}, False
        for line in html.unescape(calendar.group(1)).replace("\r\n ", "").replace("\n ", "").splitlines():
            if line == "BEGIN:VTODO":
                inside = True
            elif line == "END:VTODO":
                break
            elif inside:
                name, _, value = line.partition(":")
                fields.setdefault(name.split(";")[0], value)
        summary = re.sub(r"\\(.)", lambda m: "\n" if m.group(1) in "nN" else m.group(1), fields.get("SUMMARY", ""))
        rows.writerow([html.unescape(href.search(block).group(1)), html.unescape(etag.search(block).group(1)),
                       fields.get("UID", ""), summary, int(fields.get("STATUS") == "COMPLETED"),
                       fields.get("DUE", ""), fields.get("PRIORITY", ""), fields.get("CATEGORIES", "")])
'''
FLOOR_SCHEMA = ("CREATE TABLE item(href TEXT PRIMARY KEY, etag TEXT NOT NULL, uid TEXT NOT NULL, summary TEXT NOT NULL,"
                " done INTEGER NOT NULL, due TEXT, priority TEXT, categories TEXT);")


class Failure(Exception):
    pass


def run(name, command, env=None, expect=None, stdout_only=False):
    """Runs COMMAND; its seconds and its output (standard output, then error;
    or only standard output). A non-zero exit, or an output without `expect`
    (a regular expression), is a Failure."""
    started = time.perf_counter()
    process = subprocess.run(command, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    output = process.stdout + process.stderr
    if process.returncode != 0:
        raise Failure("%s exited with %d: %s" % (name, process.returncode, output.strip()[-800:]))
    if expect is not None and not re.search(expect, output):
        raise Failure("%s: expected /%s/ in its output, got: %s" % (name, expect, output.strip()[-800:]))
    return seconds, process.stdout if stdout_only else output


class Radicale:
    def __init__(self, python, work):
        self.root = os.path.join(work, "radicale")
        self.folder = os.path.join(self.root, "collection-root", USER, "tasks")
        self.port = free_port()
        self.url = "http://127.0.0.1:%d/%s/tasks/" % (self.port, USER)
        self.log = os.path.join(work, "radicale.log")
        users = os.path.join(work, "htpasswd")
        with open(users, "w") as handle:
            handle.write("%s:%s\n" % (USER, PASSWORD))
        self.config = os.path.join(work, "radicale.conf")
        with open(self.config, "w") as handle:
            handle.write("[server]\nhosts = 127.0.0.1:%d\n[auth]\ntype = htpasswd\nhtpasswd_filename = %s\n"
                         "htpasswd_encryption = plain\n[rights]\ntype = owner_only\n[storage]\nfilesystem_folder = %s\n"
                         "[logging]\nlevel = info\n" % (self.port, users, self.root))
        self.command = [python, "-m", "radicale", "--config", self.config]
        self.process = None

    def fill(self, items):
        os.makedirs(self.folder)
        with open(os.path.join(self.folder, ".Radicale.props"), "w") as props:
            json.dump({"C:supported-calendar-component-set": "VTODO", "D:displayname": "tasks", "tag": "VCALENDAR"}, props)
        for uid, text in items:
            with open(os.path.join(self.folder, uid + ".ics"), "w", newline="") as item:
                item.write(text)

    def start(self):
        self.log_handle = open(self.log, "a")
        self.process = subprocess.Popen(self.command, stdout=subprocess.DEVNULL, stderr=self.log_handle)
        wait_port(self.port)

    def stop(self):
        if self.process:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait()
            self.process = None
            self.log_handle.close()

    def log_size(self):
        return os.path.getsize(self.log)

    def requests_since(self, offset):
        """Requests Radicale logged since `offset` (a log_size): METHOD → count,
        and under "radicale_s" the seconds it took to answer them, summed."""
        counts, seconds = {}, 0.0
        with open(self.log, "rb") as handle:
            handle.seek(offset)
            for line in handle.read().decode("utf-8", "replace").splitlines():
                match = re.search(r"\] (\w+) request for ", line)
                if match:
                    counts[match.group(1)] = counts.get(match.group(1), 0) + 1
                match = re.search(r"\] \w+ response status for .* in ([0-9.]+) seconds.*: (\d+)", line)
                if match:
                    seconds += float(match.group(1))
                    if not match.group(2).startswith("2"):
                        counts["status_" + match.group(2)] = counts.get("status_" + match.group(2), 0) + 1
        counts["radicale_s"] = round(seconds, 3)
        return counts

    def curl(self, method, body, depth, out="-", compressed=True):
        """curl's seconds for one request to the list, and what it wrote to stdout."""
        command = ["curl", "-sS", "--fail", "-X", method, "-H", "Depth: " + depth,
                   "-H", "Content-Type: application/xml; charset=utf-8", "-u", "%s:%s" % (USER, PASSWORD),
                   "--data-binary", body, "-o", out, self.url]
        if compressed:
            command.insert(1, "--compressed")
        return run("curl " + method, command, stdout_only=True)

    def sync_token(self):
        _, out = self.curl("PROPFIND", SYNC_TOKEN, "0")
        return re.search(r"<(?:[\w-]+:)?sync-token>(.*?)</", out).group(1)

    def items(self):
        return [name for name in os.listdir(self.folder) if name.endswith(".ics")]

    def remove_all_but(self, keep):
        """Takes every item whose name is not in `keep` out of the storage folder,
        with its cache entries, so the list's sync-token is the one before."""
        cache = os.path.join(self.folder, ".Radicale.cache")
        for name in self.items():
            if name not in keep:
                os.remove(os.path.join(self.folder, name))
                for kind in ("item", "history"):
                    try:
                        os.remove(os.path.join(cache, kind, name))
                    except FileNotFoundError:
                        pass


def count_rows(database, table):
    out = subprocess.run(["sqlite3", database, "SELECT count(*) FROM %s" % table], check=True, capture_output=True, text=True)
    return int(out.stdout.strip())


def copy_database(source, target):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(target + suffix):
            os.remove(target + suffix)
        if os.path.exists(source + suffix):
            shutil.copyfile(source + suffix, target + suffix)


def vdirsyncer_pair(vdirsyncer, base, url):
    """A discovered pair (the list, an empty folder): its sync command."""
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(os.path.join(base, "tasks"))
    config = os.path.join(base, "config")
    with open(config, "w") as handle:
        handle.write('[general]\nstatus_path = "%s/status/"\n[pair p]\na = "l"\nb = "r"\ncollections = null\n'
                     '[storage l]\ntype = "filesystem"\npath = "%s/tasks/"\nfileext = ".ics"\n'
                     '[storage r]\ntype = "caldav"\nurl = "%s"\nusername = "%s"\npassword = "%s"\n'
                     % (base, base, url, USER, PASSWORD))
    run("vdirsyncer discover", [vdirsyncer, "-c", config, "discover"])
    return [vdirsyncer, "-c", config, "sync"]


def push_body(uid, text, due):
    """An .ics like the ones todo PUTs."""
    return "\r\n".join(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//todo//todo//EN", "BEGIN:VTODO", "CATEGORIES:home",
                        "CREATED:20261126T062437Z", "DTSTAMP:20261126T062437Z", "DUE;VALUE=DATE:%s" % due,
                        "LAST-MODIFIED:20261126T062437Z", "STATUS:NEEDS-ACTION", "SUMMARY:" + text, "UID:" + uid,
                        "X-TODO-EDITED:20261126T062437Z created=2026-11-26T06:24:37.237Z", "END:VTODO",
                        "END:VCALENDAR"]) + "\r\n"


def median(values):
    return statistics.median(values)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--todo", required=True, help="the todo binary")
    parser.add_argument("--venv", required=True, help="the virtual environment with Radicale and vdirsyncer (or its bin)")
    parser.add_argument("--work", required=True, help="a scratch folder (emptied first)")
    parser.add_argument("--size", type=int, default=10_000, help="VTODOs in the list")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each measurement (first syncs and pushes: at most 3)")
    parser.add_argument("--adds", type=int, default=1_000, help="todos added locally, then pushed")
    parser.add_argument("--figures", help="also append each figure to this JSONL file, as Benchmarks/run.sh records them")
    args = parser.parse_args()
    try:
        result = measure(args)
    except Failure as failure:
        print("caldav_client_bench.py: %s" % failure, file=sys.stderr)
        sys.exit(1)
    print(json.dumps(result, indent=1))
    if args.figures:
        write_figures(args.figures, result)


def measure(args):
    venv = args.venv if os.path.exists(os.path.join(args.venv, "python")) else os.path.join(args.venv, "bin")
    python, vdirsyncer = os.path.join(venv, "python"), os.path.join(venv, "vdirsyncer")
    todo = os.path.abspath(args.todo)
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = {key: value for key, value in os.environ.items() if not key.startswith("TODO_")}
    env.update(XDG_CONFIG_HOME=os.path.join(work, "config"), XDG_DATA_HOME=os.path.join(work, "data"), TODO_PASSWORD=PASSWORD)
    first_rounds, rounds = min(args.rounds, 3), args.rounds
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # Radicale is stopped on the way out

    radicale = Radicale(python, work)
    items = [vtodo(i) for i in range(args.size)]
    radicale.fill(items)
    originals = set(radicale.items())
    radicale.start()
    try:
        return measure_with(args, radicale, env, todo, vdirsyncer, originals, first_rounds, rounds, work)
    finally:
        radicale.stop()


def measure_with(args, radicale, env, todo, vdirsyncer, originals, first_rounds, rounds, work):
    size = args.size
    sync = [todo, "sync", "--server", "caldav+" + radicale.url, "--user", USER, "--database"]
    result = {"size": size, "adds": args.adds, "rounds_first_sync_and_push": first_rounds, "rounds_noop_sync": rounds}
    # Radicale reads every item and builds its cache on the first request after a start.
    result["radicale_first_query_after_start_s"] = round(radicale.curl("REPORT", QUERY, "1", out=os.devnull)[0], 3)
    result["radicale_query_again_s"] = round(radicale.curl("REPORT", QUERY, "1", out=os.devnull)[0], 3)
    # And its first sync-token of the list writes a history entry for every item.
    started = time.perf_counter()
    token = radicale.sync_token()
    result["radicale_first_sync_token_s"] = round(time.perf_counter() - started, 3)

    # 1. First sync into an empty place.
    first = os.path.join(work, "first")
    os.makedirs(first)
    extract = os.path.join(first, "extract.py")
    with open(extract, "w") as handle:
        handle.write(EXTRACT)
    times = {key: [] for key in ("todo", "vdirsyncer", "floor", "floor_curl", "floor_extract", "floor_sqlite3",
                                 "floor_curl_plain", "floor_token_curl", "floor_with_token")}
    requests = []
    for round_ in range(first_rounds):
        database = os.path.join(first, "todo-%d.sqlite" % round_)
        offset = radicale.log_size()
        seconds, _ = run("todo sync (first)", sync + [database], env, r"Synced: %d pulled, 0 pushed" % size)
        requests.append(radicale.requests_since(offset))
        if count_rows(database, "todo") != size:
            raise Failure("todo's first sync left %d todos in %s, not %d" % (count_rows(database, "todo"), database, size))
        times["todo"].append(seconds)
        if round_ > 0:  # the last round's database is synced again below
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(os.path.join(first, "todo-%d.sqlite%s" % (round_ - 1, suffix))):
                    os.remove(os.path.join(first, "todo-%d.sqlite%s" % (round_ - 1, suffix)))

        base = os.path.join(first, "vdir")
        command = vdirsyncer_pair(vdirsyncer, base, radicale.url)
        offset = radicale.log_size()
        times["vdirsyncer"].append(run("vdirsyncer sync (first)", command)[0])
        requests_vdirsyncer = radicale.requests_since(offset)
        pulled = len(os.listdir(os.path.join(base, "tasks")))
        if pulled != size:
            raise Failure("vdirsyncer's first sync wrote %d items, not %d" % (pulled, size))

        answer, csv_file, floor_db = (os.path.join(first, name) for name in ("answer.xml", "items.csv", "floor.sqlite"))
        for path in (answer, csv_file, floor_db):
            if os.path.exists(path):
                os.remove(path)
        curl = radicale.curl("REPORT", QUERY, "1", out=answer)[0]
        loaded = run("floor's extraction", [sys.executable, extract, answer, csv_file])[0]
        stored = run("floor's sqlite3", ["sqlite3", "-cmd", "PRAGMA synchronous=NORMAL", floor_db, FLOOR_SCHEMA,
                                         ".import --csv %s item" % csv_file])[0]
        if count_rows(floor_db, "item") != size:
            raise Failure("the floor loaded %d items, not %d" % (count_rows(floor_db, "item"), size))
        times["floor_curl"].append(curl)
        times["floor_extract"].append(loaded)
        times["floor_sqlite3"].append(stored)
        times["floor"].append(curl + loaded + stored)
        times["floor_curl_plain"].append(radicale.curl("REPORT", QUERY, "1", out=os.devnull, compressed=False)[0])
        # Not in the floor: the list's sync-token, which todo asks for first (its PROPFIND).
        token_curl = radicale.curl("PROPFIND", LIST_PROPERTIES, "0", out=os.devnull)[0]
        times["floor_token_curl"].append(token_curl)
        times["floor_with_token"].append(curl + loaded + stored + token_curl)
    database = os.path.join(first, "todo-%d.sqlite" % (first_rounds - 1))
    for key, values in times.items():
        result["first_sync_%s_s" % key] = round(median(values), 3)
    result["first_sync_todo_over_vdirsyncer"] = round(median(times["todo"]) / median(times["vdirsyncer"]), 2)
    result["first_sync_todo_over_floor"] = round(median(times["todo"]) / median(times["floor"]), 2)
    result["first_sync_todo_over_floor_with_token"] = round(median(times["todo"]) / median(times["floor_with_token"]), 2)
    result["first_sync_todo_requests"] = requests[-1]
    result["first_sync_vdirsyncer_requests"] = requests_vdirsyncer

    # 2. A sync with nothing to do, right after a sync.
    run("todo sync (settling)", sync + [database], env, r"Synced: 0 pulled, 0 pushed")
    run("vdirsyncer sync (settling)", command)
    if radicale.sync_token() != token:
        raise Failure("the list changed during the first syncs")
    times = {"todo": [], "vdirsyncer": [], "curl": []}
    requests = {"todo": [], "vdirsyncer": []}
    for _ in range(rounds):
        offset = radicale.log_size()
        times["todo"].append(run("todo sync (nothing to do)", sync + [database], env, r"Synced: 0 pulled, 0 pushed, 0 deleted here, 0 deleted on the server")[0])
        requests["todo"].append(radicale.requests_since(offset))
        offset = radicale.log_size()
        times["vdirsyncer"].append(run("vdirsyncer sync (nothing to do)", command)[0])
        requests["vdirsyncer"].append(radicale.requests_since(offset))
        seconds, out = radicale.curl("REPORT", sync_body(token), "0")
        if re.search(r"<(?:[\w-]+:)?href>", out):
            raise Failure("a sync-collection with the latest token answered changes: %s" % out[:400])
        times["curl"].append(seconds)
    for key, values in times.items():
        result["noop_sync_%s_s" % key] = round(median(values), 4)
    result["noop_sync_todo_over_vdirsyncer"] = round(median(times["todo"]) / median(times["vdirsyncer"]), 2)
    result["noop_sync_todo_over_curl"] = round(median(times["todo"]) / median(times["curl"]), 2)
    result["noop_sync_todo_requests"] = max(requests["todo"], key=lambda counts: sum(n for key, n in counts.items() if key.isupper()))
    result["noop_sync_vdirsyncer_requests"] = requests["vdirsyncer"][-1]

    # 3. Pushing --adds local adds; each round from the same state.
    push = os.path.join(work, "push")
    os.makedirs(push)
    synced, pushing = os.path.join(push, "synced.sqlite"), os.path.join(push, "todo.sqlite")
    copy_database(database, synced)
    if radicale.sync_token() != token:
        raise Failure("the list changed during the syncs with nothing to do")
    times = {"todo": [], "curl": []}
    adds = args.adds
    reported, requests = [], []
    for round_ in range(first_rounds):
        copy_database(synced, pushing)
        lines = os.path.join(push, "adds.txt")
        with open(lines, "w") as handle:
            for i in range(adds):
                handle.write("push round %d todo %d +home due:2026-12-%02d\n" % (round_, i, 1 + i % 28))
        run("todo import", [todo, "import", "--from", "todotxt", lines, "--database", pushing], env, r"Imported %d new" % adds)
        offset = radicale.log_size()
        seconds, out = run("todo sync (push)", sync + [pushing], env, r"Synced: 0 pulled, \d+ pushed")
        pushed_requests = radicale.requests_since(offset)
        times["todo"].append(seconds)
        # A PUT that waits longer than todo's read timeout is sent again (412: it is
        # there), then read back (GET), and not counted as pushed: the list must
        # hold every add all the same.
        reported.append(int(re.search(r"Synced: 0 pulled, (\d+) pushed", out).group(1)))
        requests.append(pushed_requests)
        if len(radicale.items()) != size + adds:
            raise Failure("after todo's push the list holds %d items, not %d" % (len(radicale.items()), size + adds))
        if count_rows(pushing, "todo") != size + adds:
            raise Failure("after the push the database holds %d todos, not %d" % (count_rows(pushing, "todo"), size + adds))
        if round_ == 0:
            # What the sync after a push costs (not a target): the list's changes since
            # the token are the pushes themselves.
            offset = radicale.log_size()
            seconds, _ = run("todo sync (after the push)", sync + [pushing], env, r"Synced: 0 pulled, 0 pushed")
            result["sync_after_push_todo_s"] = round(seconds, 3)
            result["sync_after_push_todo_requests"] = radicale.requests_since(offset)
        radicale.remove_all_but(originals)
        if radicale.sync_token() != token:
            raise Failure("taking the pushed items out of Radicale did not bring its sync-token back")

        bodies = os.path.join(push, "curl-%d" % round_)
        os.makedirs(bodies)
        config = os.path.join(push, "curl-%d.config" % round_)
        with open(config, "w") as handle:
            handle.write('silent\nshow-error\nparallel\nparallel-max = 8\nuser = "%s:%s"\nheader = "If-None-Match: *"\n'
                         'header = "Content-Type: text/calendar; charset=utf-8"\nheader = "Expect:"\nwrite-out = "%%{http_code}\\n"\n' % (USER, PASSWORD))
            for i in range(adds):
                uid = str(uuid.uuid4())
                path = os.path.join(bodies, uid + ".ics")
                with open(path, "w", newline="") as body:
                    body.write(push_body(uid, "push round %d curl %d" % (round_, i), "202612%02d" % (1 + i % 28)))
                handle.write('upload-file = "%s"\nurl = "%s%s.ics"\noutput = "/dev/null"\n' % (path, radicale.url, uid))
        seconds, out = run("curl PUTs", ["curl", "-s", "--no-progress-meter", "-K", config], stdout_only=True)
        codes = out.split()
        if len(codes) != adds or set(codes) != {"201"}:
            raise Failure("curl's PUTs answered %s" % sorted(set(codes)))
        times["curl"].append(seconds)
        if len(radicale.items()) != size + adds:
            raise Failure("after curl's PUTs the list holds %d items, not %d" % (len(radicale.items()), size + adds))
        radicale.remove_all_but(originals)
        shutil.rmtree(bodies)
        if radicale.sync_token() != token:
            raise Failure("taking the PUT items out of Radicale did not bring its sync-token back")
    for key, values in times.items():
        result["push_%s_s" % key] = round(median(values), 3)
    result["push_todo_over_curl"] = round(median(times["todo"]) / median(times["curl"]), 2)
    result["push_todo_reported_pushed"] = reported
    result["push_todo_requests"] = requests

    targets = (("first_sync_todo_over_vdirsyncer", 0.5), ("first_sync_todo_over_floor", 1.5),
               ("noop_sync_todo_over_vdirsyncer", 1 / 3), ("noop_sync_todo_over_curl", 1.2), ("push_todo_over_curl", 1.5))
    result["targets_met"] = {name: result[name] <= limit for name, limit in targets}
    return result


def write_figures(path, result):
    """run.sh's lines: name, size, tool, value, unit."""
    size, adds = result["size"], result["adds"]
    rows = [("caldav-first-sync-todo", size, "todo", result["first_sync_todo_s"]),
            ("caldav-first-sync-vdirsyncer", size, "vdirsyncer", result["first_sync_vdirsyncer_s"]),
            ("caldav-first-sync-floor", size, "curl+sqlite3", result["first_sync_floor_s"]),
            ("caldav-noop-sync-todo", size, "todo", result["noop_sync_todo_s"]),
            ("caldav-noop-sync-vdirsyncer", size, "vdirsyncer", result["noop_sync_vdirsyncer_s"]),
            ("caldav-noop-sync-floor", size, "curl", result["noop_sync_curl_s"]),
            ("caldav-push-todo", adds, "todo", result["push_todo_s"]),
            ("caldav-push-floor", adds, "curl", result["push_curl_s"])]
    with open(path, "a") as figures:
        for name, rows_size, tool, seconds in rows:
            figures.write(json.dumps({"name": name, "size": rows_size, "tool": tool, "value": round(seconds * 1000, 2), "unit": "ms"}) + "\n")


if __name__ == "__main__":
    main()
