#!/usr/bin/env python3
"""todo-server's CalDAV beside Radicale holding the same VTODOs.

Both servers hold the same N VTODOs (written with PUT through CalDAV on
todo-server, into its storage folder on Radicale). Then, timed with curl in
turns (A B A B ..., medians): a calendar-query REPORT of every VTODO with its
data, a sync-collection with no token, one with the latest token (nothing
new); the first request after each server restarts; vdirsyncer's first
sync of the list into an empty folder, and its syncs with nothing new (in turns). Prints one JSON object.

Usage: caldav_bench.py --todo-server PATH --venv DIR --work DIR [--size N] [--rounds K]
"""
import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time

QUERY = ('<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>'
         '<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>')


def sync_body(token):
    return ('<d:sync-collection xmlns:d="DAV:"><d:sync-token>%s</d:sync-token><d:sync-level>1</d:sync-level>'
            '<d:prop><d:getetag/></d:prop></d:sync-collection>' % token)


def vtodo(i):
    uid = "bench-%06d@example.org" % i
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//EN", "BEGIN:VTODO", "UID:" + uid,
             "DTSTAMP:20261120T100000Z", "CREATED:20261120T100000Z", "LAST-MODIFIED:20261120T100000Z",
             "SUMMARY:task number %d\\, with a comma" % i, "STATUS:%s" % ("COMPLETED" if i % 3 == 0 else "NEEDS-ACTION")]
    if i % 3 == 0:
        lines.append("COMPLETED:20261121T100000Z")
    if i % 2 == 0:
        lines.append("DUE;VALUE=DATE:202612%02d" % (1 + i % 28))
    if i % 5 == 0:
        lines += ["PRIORITY:%d" % (1 + i % 9), "CATEGORIES:home,errands"]
    lines += ["X-APPLE-SORT-ORDER:%d" % i, "END:VTODO", "END:VCALENDAR"]
    return uid, "\r\n".join(lines) + "\r\n"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("server on %d did not start" % port)


class Server:
    def __init__(self, name, start, port, user, password):
        self.name, self.start, self.port, self.user, self.password = name, start, port, user, password
        self.process = None

    def run(self):
        self.process = subprocess.Popen(self.start, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port)

    def stop(self):
        if self.process:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait()
            self.process = None

    @property
    def collection(self):
        return "http://127.0.0.1:%d/dav/bench/tasks/" % self.port if self.name == "todo-server" \
            else "http://127.0.0.1:%d/bench/tasks/" % self.port

    def curl(self, method, body=None, depth="1"):
        """Seconds curl takes for one request, and the response's bytes."""
        command = ["curl", "-s", "-X", method, "-H", "Depth: " + depth, "-H", "Content-Type: application/xml",
                   "-u", "%s:%s" % (self.user, self.password), self.collection]
        if body is not None:
            command += ["--data-binary", body]
        started = time.perf_counter()
        out = subprocess.run(command, check=True, capture_output=True).stdout
        return time.perf_counter() - started, out

    def rss_kb(self):
        with open("/proc/%d/status" % self.process.pid) as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0


def put_all(server, items):
    connection = http.client.HTTPConnection("127.0.0.1", server.port)
    import base64
    auth = "Basic " + base64.b64encode(("%s:%s" % (server.user, server.password)).encode()).decode()
    path = server.collection.split(str(server.port), 1)[1]
    for uid, text in items:
        connection.request("PUT", path + uid + ".ics", text.encode(), {"Authorization": auth, "If-None-Match": "*",
                                                                          "Content-Type": "text/calendar"})
        response = connection.getresponse()
        response.read()
        if response.status not in (201, 204):
            raise SystemExit("PUT %s: %d" % (uid, response.status))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--todo-server", required=True)
    parser.add_argument("--venv", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--skip-vdirsyncer", action="store_true")
    parser.add_argument("--figures", help="also append each figure to this JSONL file, as Benchmarks/run.sh records them")
    parser.add_argument("--large", type=int, default=100_000,
                        help="todos of the account whose one REPORT's memory is measured, beside one of 1,000 (0: skip)")
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    items = [vtodo(i) for i in range(args.size)]

    # Radicale, its collection written into its storage folder.
    folder = os.path.join(args.work, "radicale", "collection-root", "bench", "tasks")
    os.makedirs(folder)
    with open(os.path.join(folder, ".Radicale.props"), "w") as props:
        json.dump({"C:supported-calendar-component-set": "VTODO", "D:displayname": "tasks", "tag": "VCALENDAR"}, props)
    for uid, text in items:
        with open(os.path.join(folder, uid + ".ics"), "w", newline="") as item:
            item.write(text)
    radicale_port = free_port()
    config = os.path.join(args.work, "radicale.conf")
    with open(config, "w") as handle:
        handle.write("[server]\nhosts = 127.0.0.1:%d\n[auth]\ntype = none\n[rights]\ntype = authenticated\n"
                     "[storage]\nfilesystem_folder = %s\n[logging]\nlevel = error\n" % (radicale_port, os.path.join(args.work, "radicale")))
    radicale = Server("radicale", [os.path.join(args.venv, "python"), "-m", "radicale", "--config", config],
                      radicale_port, "bench", "x")

    # todo-server with an account bench, the items PUT through CalDAV.
    database = os.path.join(args.work, "todo-server.sqlite")
    added = subprocess.run([args.todo_server, "user", "add", "bench", "--database", database], check=True, capture_output=True, text=True)
    token = [line for line in added.stdout.split("\n") if line.startswith("todo_")][0]
    todo_port = free_port()
    todo = Server("todo-server", [args.todo_server, "--port", str(todo_port), "--database", database], todo_port, "bench", token)
    todo.run()
    started = time.perf_counter()
    put_all(todo, items)
    put_seconds = time.perf_counter() - started
    radicale.run()

    result = {"size": args.size, "put_all_todo_server_s": round(put_seconds, 2)}
    # The first request after a start: Radicale builds its cache of the items then.
    for server in (radicale, todo):
        server.stop()
        server.run()
        seconds, _ = server.curl("REPORT", QUERY)
        result["first_query_after_start_%s_s" % server.name] = round(seconds, 3)

    tokens = {}
    for server in (radicale, todo):
        _, out = server.curl("REPORT", sync_body(""))
        text = out.decode()
        tokens[server.name] = text.split("sync-token>")[-2].rstrip("</d:").rstrip("</")
    timings = {key: {"radicale": [], "todo-server": []} for key in ("query", "sync_no_token", "sync_nothing_new")}
    for _ in range(args.rounds):
        for server in (radicale, todo):
            timings["query"][server.name].append(server.curl("REPORT", QUERY)[0])
            timings["sync_no_token"][server.name].append(server.curl("REPORT", sync_body(""))[0])
            timings["sync_nothing_new"][server.name].append(server.curl("REPORT", sync_body(tokens[server.name]))[0])
    for key, values in timings.items():
        for name, seconds in values.items():
            result["%s_%s_s" % (key, name)] = round(statistics.median(seconds), 4)
        result["%s_ratio" % key] = round(statistics.median(values["radicale"]) / statistics.median(values["todo-server"]), 1)
    result["rss_after_reports_todo_server_kb"] = todo.rss_kb()

    if not args.skip_vdirsyncer:
        for server in (radicale, todo):
            base = os.path.join(args.work, "vdir-" + server.name)
            os.makedirs(os.path.join(base, "tasks"))
            with open(os.path.join(base, "config"), "w") as handle:
                handle.write('[general]\nstatus_path = "%s/status/"\n[pair p]\na = "l"\nb = "r"\ncollections = null\n'
                             '[storage l]\ntype = "filesystem"\npath = "%s/tasks/"\nfileext = ".ics"\n'
                             '[storage r]\ntype = "caldav"\nurl = "%s"\nusername = "%s"\npassword = "%s"\n'
                             % (base, base, server.collection, server.user, server.password))
            vdirsyncer = os.path.join(args.venv, "vdirsyncer")
            subprocess.run([vdirsyncer, "-c", os.path.join(base, "config"), "discover"], check=True, capture_output=True)
            started = time.perf_counter()
            subprocess.run([vdirsyncer, "-c", os.path.join(base, "config"), "sync"], check=True, capture_output=True)
            result["vdirsyncer_first_sync_%s_s" % server.name] = round(time.perf_counter() - started, 2)
        # A sync with nothing new, in turns (vdirsyncer asks for every ETag, then nothing).
        noop = {"radicale": [], "todo-server": []}
        for _ in range(max(3, args.rounds)):
            for server in (radicale, todo):
                base = os.path.join(args.work, "vdir-" + server.name)
                started = time.perf_counter()
                subprocess.run([vdirsyncer, "-c", os.path.join(base, "config"), "sync"], check=True, capture_output=True)
                noop[server.name].append(time.perf_counter() - started)
        for name, seconds in noop.items():
            result["vdirsyncer_noop_sync_%s_s" % name] = round(statistics.median(seconds), 3)
        # todo-server's time over Radicale's: the targets are at most 0.5 and 0.3.
        result["vdirsyncer_first_sync_todo_over_radicale"] = round(
            result["vdirsyncer_first_sync_todo-server_s"] / result["vdirsyncer_first_sync_radicale_s"], 2)
        result["vdirsyncer_noop_sync_todo_over_radicale"] = round(
            result["vdirsyncer_noop_sync_todo-server_s"] / result["vdirsyncer_noop_sync_radicale_s"], 2)
        result["vdirsyncer_first_sync_ratio"] = round(result["vdirsyncer_first_sync_radicale_s"] / result["vdirsyncer_first_sync_todo-server_s"], 2)

    if args.large:
        result.update(large_lists(args, todo, database))
    for server in (radicale, todo):
        server.stop()
    print(json.dumps(result, indent=1))
    if args.figures:
        write_figures(args.figures, result, args.size, args.large)


def write_figures(path, result, size, large):
    """run.sh's lines: name, size, tool, value, unit."""
    rows = []
    for key, name in (("query", "caldav-query-all"), ("sync_no_token", "caldav-sync-no-token"),
                      ("sync_nothing_new", "caldav-sync-nothing-new"), ("first_query_after_start", "caldav-first-request-after-start"),
                      ("vdirsyncer_first_sync", "vdirsyncer-first-sync"), ("vdirsyncer_noop_sync", "vdirsyncer-noop-sync")):
        for tool in ("radicale", "todo-server"):
            value = result.get("%s_%s_s" % (key, tool))
            if value is not None:
                rows.append((name, size, tool, value * 1000, "ms"))
    if large:
        rows.append(("caldav-sync-nothing-new", 1000, "todo-server", result["sync_nothing_new_1000_s"] * 1000, "ms"))
        rows.append(("caldav-sync-nothing-new", large, "todo-server", result["sync_nothing_new_%d_s" % large] * 1000, "ms"))
        rows.append(("caldav-query-all-peak-rss", large, "todo-server", result["rss_peak_after_large_query_kb"], "KB"))
    with open(path, "a") as figures:
        for name, rows_size, tool, value, unit in rows:
            figures.write(json.dumps({"name": name, "size": rows_size, "tool": tool, "value": round(value, 2), "unit": unit}) + "\n")


def large_lists(args, todo, database):
    """A sync-collection with nothing new on lists of 1,000 and of `--large`
    todos (in turns), and the server's peak memory across one calendar-query
    of the large list (RSS high-water mark before and after)."""
    import base64
    servers = {}
    for name, size in (("small", 1_000), ("large", args.large)):
        added = subprocess.run([args.todo_server, "user", "add", name, "--database", database], check=True, capture_output=True, text=True)
        token = [line for line in added.stdout.split("\n") if line.startswith("todo_")][0]
        connection = http.client.HTTPConnection("127.0.0.1", todo.port)
        for start in range(0, size, 1_000):
            operations = [{"method": "POST", "body": {"id": "t%d" % i, "title": "task %d" % i, "completed": i % 3 == 0,
                                                      "dueDate": "2026-12-%02d" % (1 + i % 28), "tags": ["home"]}}
                          for i in range(start, min(size, start + 1_000))]
            connection.request("POST", "/todos/_batch", json.dumps({"operations": operations}),
                               {"Authorization": "Bearer " + token, "Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
        server = Server("todo-server", [], todo.port, name, token)
        server.process = todo.process
        server.__class__ = type("Named", (Server,), {"collection": property(lambda self, n=name: "http://127.0.0.1:%d/dav/%s/tasks/" % (self.port, n))})
        servers[name] = server
    result = {}
    tokens = {}
    for name, server in servers.items():
        out = server.curl("REPORT", sync_body(""))[1].decode()
        tokens[name] = out.split("<d:sync-token>")[-1].split("</d:sync-token>")[0]
    times = {"small": [], "large": []}
    for _ in range(max(5, args.rounds)):
        for name, server in servers.items():
            times[name].append(server.curl("REPORT", sync_body(tokens[name]))[0])
    result["sync_nothing_new_1000_s"] = round(statistics.median(times["small"]), 4)
    result["sync_nothing_new_%d_s" % args.large] = round(statistics.median(times["large"]), 4)
    result["sync_nothing_new_large_over_small"] = round(statistics.median(times["large"]) / statistics.median(times["small"]), 2)
    before = todo.rss_kb()
    seconds, out = servers["large"].curl("REPORT", QUERY)
    result["query_%d_s" % args.large] = round(seconds, 2)
    result["query_%d_responses" % args.large] = out.count(b"<d:response>")
    result["rss_peak_before_large_query_kb"] = before
    result["rss_peak_after_large_query_kb"] = todo.rss_kb()
    return result


if __name__ == "__main__":
    main()
