#!/usr/bin/env python3
"""Live sync, measured as people see it (issue: a change made anywhere shows
in every open `todo ui` within a quarter of a second).

- latency: two replicas, each with `todo ui` open in a pseudo-terminal, both
  synced with one todo-server. A change is made in replica A (`todo add` on
  A's database, which A's open view sends) or through the JSON API (a POST to
  the server); the time until B's view writes it to its terminal, 50 times.
- idle: with nothing changing, the CPU each view uses and the requests the
  server sees, over a quiet window.
- streams: 1,000 event streams open at once on the server: its memory before
  and after, and its CPU while they idle.
- fanout: 50 listening clients, 100 changes a second on one account for a few
  seconds: each client's last event must be the server's last cursor.

Every figure is printed; with --figures, appended as Benchmarks/run.sh
records them. Needs the built `todo` and `todo-server`; PostgreSQL through
--postgres URL (a database of its own, empty).
"""
import argparse
import fcntl
import http.client
import json
import os
import pty
import resource
import select
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, binary, database, work, heartbeat=30):
        self.port = free_port()
        self.log_path = os.path.join(work, f"server-{self.port}.log")
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--database", database, "--event-heartbeat", str(heartbeat),
             "--max-event-streams-per-account", "2000", "--durability", "normal"],
            stdout=self.log, stderr=self.log)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise SystemExit(f"todo-server did not start: {open(self.log_path).read()}")

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def requests_seen(self):
        with open(self.log_path) as log:
            return sum(1 for line in log if "[TodoServer] Request" in line)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class View:
    """`todo ui` in a pseudo-terminal; a thread reads what it writes and notes when each awaited text first shows."""

    def __init__(self, todo, database, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(todo, [todo, "ui", "--database", database], env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))
        self.lock = threading.Lock()
        self.tail = ""
        self.awaited = {}
        self.seen = {}
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            now = time.perf_counter()
            with self.lock:
                text = self.tail + chunk.decode("utf-8", "replace")
                for token in list(self.awaited):
                    if token in text:
                        self.seen[token] = now
                        del self.awaited[token]
                self.tail = text[-4096:]

    def expect(self, token):
        with self.lock:
            if token in self.tail:
                self.seen[token] = time.perf_counter()
            else:
                self.awaited[token] = True

    def wait(self, token, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self.lock:
                if token in self.seen:
                    return self.seen[token]
            time.sleep(0.001)
        raise SystemExit(f"timed out waiting for {token!r} on screen; last output: {self.tail[-500:]!r}")

    def wait_for_text(self, text, timeout=30):
        self.expect(text)
        return self.wait(text, timeout)

    def cpu_seconds(self):
        return cpu_of(self.pid)

    def quit(self):
        try:
            os.write(self.fd, b"q")
            os.waitpid(self.pid, 0)
        except OSError:
            pass


def run(command, env):
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def latency(args, server, work, figures, backend):
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1", XDG_CONFIG_HOME=os.path.join(work, "config"))
    env.pop("TODO_SERVER", None)
    a, b = os.path.join(work, "a.sqlite"), os.path.join(work, "b.sqlite")
    for db in (a, b):
        run([args.todo, "sync", "--server", server.url, "--database", db], env)
    view_a, view_b = View(args.todo, a, env), View(args.todo, b, env)
    try:
        for view in (view_a, view_b):
            view.wait_for_text("live · synced")
        time.sleep(1)
        results = {}
        for kind in ("add", "api"):
            times = []
            connection = http.client.HTTPConnection("127.0.0.1", server.port)
            for index in range(args.changes):
                token = f"live{kind}{index:03d}q"
                # The selection on the newest todo (g): the view keeps its selection
                # on screen, so one pushed to the bottom would let new todos scroll
                # in above the screen.
                os.write(view_b.fd, b"g")
                time.sleep(0.05)
                view_b.expect(token)
                start = time.perf_counter()
                if kind == "add":
                    run([args.todo, "add", token, "--database", a], env)
                else:
                    connection.request("POST", "/todos", body=json.dumps({"title": token}), headers={"Content-Type": "application/json"})
                    response = connection.getresponse()
                    response.read()
                    assert response.status == 201, response.status
                times.append((view_b.wait(token) - start) * 1000)
                time.sleep(args.gap)
            connection.close()
            results[kind] = times
            median, p95 = statistics.median(times), percentile(times, 0.95)
            print(f"{backend}: {kind} in one replica -> on the other's screen, {len(times)} changes: "
                  f"median {median:.1f} ms, p95 {p95:.1f} ms, max {max(times):.1f} ms")
            figures.append((f"live-latency-{kind}-median", backend, median, "ms"))
            figures.append((f"live-latency-{kind}-p95", backend, p95, "ms"))

        # Idle: nothing changes; the views use next to no CPU, the server sees no request.
        time.sleep(2)
        before = (view_a.cpu_seconds(), view_b.cpu_seconds(), server.requests_seen())
        time.sleep(args.idle)
        after = (view_a.cpu_seconds(), view_b.cpu_seconds(), server.requests_seen())
        for name, index in (("a", 0), ("b", 1)):
            per_second = (after[index] - before[index]) / args.idle * 1000
            print(f"{backend}: idle view {name}: {per_second:.2f} ms of CPU a second over {args.idle} s")
            figures.append((f"live-idle-view-cpu-{name}", backend, per_second, "ms/s"))
        print(f"{backend}: requests the server saw while idle for {args.idle} s: {after[2] - before[2]}")
        figures.append(("live-idle-requests", backend, after[2] - before[2], "requests"))
    finally:
        view_a.quit()
        view_b.quit()


def open_stream(port):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"GET /todos/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    sock.setblocking(False)
    return sock


def rss_kb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_of(pid):
    """Seconds of CPU the process has used, threads that ended included, in clock ticks
    (10 ms): a quiet window of a minute reads it to 0.17 ms a second."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def streams(args, server, figures, backend):
    time.sleep(1)
    # The server's own idle cost (its clock for the Date header, the database
    # watch's steady look), with no stream open: what the streams add is beyond it.
    cpu_start = cpu_of(server.process.pid)
    time.sleep(args.idle)
    baseline = (cpu_of(server.process.pid) - cpu_start) / args.idle * 1000
    before = rss_kb(server.process.pid)
    socks = [open_stream(server.port) for _ in range(args.streams)]
    # Each stream's first event says where the feed stands: all open and served.
    pending = set(range(len(socks)))
    deadline = time.time() + 60
    while pending and time.time() < deadline:
        for index in list(pending):
            try:
                if b"event: change" in socks[index].recv(65536):
                    pending.discard(index)
            except BlockingIOError:
                pass
        time.sleep(0.01)
    if pending:
        raise SystemExit(f"{len(pending)} streams got no first event")
    time.sleep(1)
    after = rss_kb(server.process.pid)
    cpu_start = cpu_of(server.process.pid)
    time.sleep(args.idle)
    cpu = (cpu_of(server.process.pid) - cpu_start) / args.idle * 1000
    grown = (after - before) / 1024
    print(f"{backend}: {args.streams} open streams: server memory +{grown:.1f} MB ({before / 1024:.1f} -> {after / 1024:.1f} MB), "
          f"{cpu:.2f} ms of CPU a second while they idle (heartbeat every {args.heartbeat} s), "
          f"{baseline:.2f} ms a second with none open")
    figures.append(("live-streams-none-idle-cpu", backend, baseline, "ms/s"))
    figures.append((f"live-streams-{args.streams}-memory", backend, grown, "MB"))
    figures.append((f"live-streams-{args.streams}-idle-cpu", backend, cpu, "ms/s"))
    for sock in socks:
        sock.close()


def fanout(args, server, figures, backend):
    time.sleep(1)
    socks = [open_stream(server.port) for _ in range(args.listeners)]
    last = [None] * len(socks)
    events = [0] * len(socks)
    buffers = [b""] * len(socks)
    stop = threading.Event()

    def listen():
        while not stop.is_set():
            ready, _, _ = select.select(socks, [], [], 0.05)
            for sock in ready:
                index = socks.index(sock)
                data = sock.recv(65536)
                buffers[index] += data
                *complete, buffers[index] = buffers[index].split(b"\n\n")
                for block in complete:
                    for line in block.split(b"\n"):
                        if line.startswith(b"id: "):
                            last[index] = int(line[4:])
                            events[index] += 1
    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    time.sleep(1)
    connection = http.client.HTTPConnection("127.0.0.1", server.port)
    total = args.rate * args.seconds
    start = time.perf_counter()
    for index in range(total):
        due = start + index / args.rate
        now = time.perf_counter()
        if due > now:
            time.sleep(due - now)
        connection.request("POST", "/todos", body=json.dumps({"title": f"fan {index}"}), headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        cursor = int(response.getheader("ETag", "0").strip('"') or 0)
        response.read()
    elapsed = time.perf_counter() - start
    feed = http.client.HTTPConnection("127.0.0.1", server.port)
    feed.request("GET", "/todos?_limit=1")
    response = feed.getresponse()
    final = int(response.getheader("X-Cursor"))
    response.read()
    deadline = time.time() + 10
    while time.time() < deadline and any(value != final for value in last):
        time.sleep(0.01)
    stop.set()
    listener.join()
    missed = sum(1 for value in last if value != final)
    print(f"{backend}: {total} changes in {elapsed:.1f} s ({total / elapsed:.0f} a second) to {len(socks)} listeners: "
          f"{len(socks) - missed} ended on the last cursor {final}, {missed} did not; events each: "
          f"min {min(events)}, median {statistics.median(events):.0f} (several changes unread arrive as one)")
    figures.append((f"live-fanout-{len(socks)}-missed", backend, missed, "listeners"))
    for sock in socks:
        sock.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--todo", required=True)
    parser.add_argument("--todo-server", required=True)
    parser.add_argument("--postgres", help="a PostgreSQL URL, an empty database: measured there as well as on SQLite")
    parser.add_argument("--changes", type=int, default=50)
    parser.add_argument("--gap", type=float, default=0.2, help="seconds between two changes")
    parser.add_argument("--idle", type=float, default=60, help="seconds of the quiet windows")
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--heartbeat", type=int, default=30)
    parser.add_argument("--listeners", type=int, default=50)
    parser.add_argument("--rate", type=int, default=100)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--work")
    parser.add_argument("--figures", help="also append each figure to this JSONL file, as Benchmarks/run.sh records them")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 2 * args.streams + 256)), hard))
    work = args.work or tempfile.mkdtemp(prefix="live-bench-")
    os.makedirs(work, exist_ok=True)
    figures = []
    backends = [("sqlite", lambda name: os.path.join(work, f"{name}.sqlite"))]
    if args.postgres:
        backends.append(("postgres", lambda name: args.postgres))
    for backend, database in backends:
        for step in ("latency", "streams", "fanout"):
            folder = os.path.join(work, f"{backend}-{step}")
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
            if backend == "sqlite":
                # A fresh database each run: the fan-out's last cursor is its own changes.
                for suffix in ("", "-wal", "-shm"):
                    try:
                        os.remove(database(f"{step}-server") + suffix)
                    except FileNotFoundError:
                        pass
            server = Server(args.todo_server, database(f"{step}-server"), folder, heartbeat=args.heartbeat)
            try:
                {"latency": latency, "streams": streams, "fanout": fanout}[step](
                    *((args, server, folder, figures, backend) if step == "latency" else (args, server, figures, backend)))
            finally:
                server.stop()
    if args.figures:
        with open(args.figures, "a") as file:
            for name, backend, value, unit in figures:
                file.write(json.dumps({"name": name, "size": 0, "tool": backend, "value": round(value, 2), "unit": unit}) + "\n")


if __name__ == "__main__":
    main()
