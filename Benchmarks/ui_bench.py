#!/usr/bin/env python3
"""`todo ui` through a pseudo-terminal: first frame, query keystrokes, moving, idle CPU.

    ui_bench.py --todo BIN --db SIZE=PATH [--db SIZE=PATH ...] [--runs 10] [--figures FILE]

Each database is opened by `todo ui` on an 80x40 pseudo-terminal (TERM=xterm-256color,
NO_COLOR=1), and the time from an action to the end of the frame it causes is read from
the terminal's side:
- first frame: from starting the process to the footer of the first frame, at every size,
  one run of each size in turn (so the machine's drift weighs on all alike);
- at the largest size: each keystroke of the queries "quokk" (1% of todos match) and "k"
  (half of them) and "den" (28%) and "jo" (none: too short for the trigram index, so the
  search reads every todo), typed one at a time, each timed to its first frame (the input
  line, the last line a frame writes, saying "searching…") and to the frame with its rows;
- moving: `j` (two lines change) and PgDn (every row changes; a window is loaded
  whenever the selection nears the edge of the rows loaded);
- idle: CPU time used by the process over 10 seconds of doing nothing.
--quick: two runs, one round of moves, two seconds idle (CI runs it so it cannot rot).
Prints a markdown table; with --figures, appends each figure as a JSON line (run.sh's
results/figures.jsonl).
"""
import argparse
import fcntl
import json
import os
import pty
import re
import select
import statistics
import struct
import subprocess
import sys
import termios
import time

COLUMNS, ROWS = 80, 40
FOOTER = b"j/k move"


class UI:
    """`todo ui` on a pseudo-terminal of its own."""

    def __init__(self, todo, database):
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1")
        self.started = time.perf_counter()
        self.process = subprocess.Popen([todo, "ui", "--database", database], stdin=slave, stdout=slave,
                                        stderr=slave, env=env, close_fds=True, start_new_session=True)
        os.close(slave)
        self.output = b""

    def read_until(self, predicate, timeout=30):
        """Reads until predicate(output) holds; returns the time it did."""
        deadline = time.perf_counter() + timeout
        while not predicate(self.output):
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError(f"todo ui did not draw what was expected; last output: {self.output[-400:]!r}")
            ready, _, _ = select.select([self.master], [], [], remaining)
            if ready:
                self.output += os.read(self.master, 65536)
        return time.perf_counter()

    def settle(self, quiet=0.15):
        """Reads until nothing more comes for `quiet` seconds, then forgets the output."""
        while select.select([self.master], [], [], quiet)[0]:
            self.output += os.read(self.master, 65536)
        self.output = b""

    def press(self, key, frame_done):
        """Sends key; seconds until frame_done(output since) holds."""
        self.output = b""
        start = time.perf_counter()
        os.write(self.master, key)
        return self.read_until(frame_done) - start

    def press_stages(self, key, *stages):
        """Sends key; seconds until each stage(output since) holds, in turn."""
        self.output = b""
        start = time.perf_counter()
        os.write(self.master, key)
        return [self.read_until(stage) - start for stage in stages]

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def quit(self):
        os.write(self.master, b"q")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.master)


ESCAPE = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")
LAST_ROW = f"\x1b[{ROWS};1H".encode()
ROW_MOVE = re.compile(rb"\x1b\[\d+;1H")
# Every line a frame writes ends with a reset (and a clear if it is short).
LINE_END = (b"\x1b[0m", b"\x1b[0m\x1b[K")


def ends_prompt(typed):
    """The frame after a keystroke in the query ends with the input line, the last row."""
    line = b" / " + typed.encode() + b" "

    def done(output):
        start = output.rfind(LAST_ROW)
        if start < 0 or not output.endswith(LINE_END):
            return False
        return ESCAPE.sub(b"", output[start:]).startswith(line)
    return done


def shows_results(typed):
    """The frame that shows a query's rows: its input line no longer says the
    search is still reading on ("searching…", drawn from the keystroke until
    the rows are in)."""
    echoed = ends_prompt(typed)

    def done(output):
        return echoed(output) and b"searching" not in output[output.rfind(LAST_ROW):]
    return done


def lines_written(count):
    return lambda output: len(ROW_MOVE.findall(output)) >= count and output.endswith(LINE_END)


def first_frame(todo, database):
    ui = UI(todo, database)
    done = ui.read_until(lambda output: FOOTER in output and output.endswith(LINE_END))
    ui.settle()
    ui.quit()
    return done - ui.started


def ms(seconds):
    return f"{seconds * 1000:.1f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--todo", required=True)
    parser.add_argument("--db", action="append", required=True, help="SIZE=PATH")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--figures")
    parser.add_argument("--quick", action="store_true", help="few runs, a short idle: checks that the script works")
    args = parser.parse_args()
    if args.quick:
        args.runs = 2
    databases = sorted(((int(size), path) for size, path in (db.split("=", 1) for db in args.db)))
    figures = []

    def record(name, size, seconds_list, unit="ms"):
        value = statistics.median(seconds_list) * 1000
        figures.append({"name": name, "size": size, "tool": "todo", "value": round(value, 2), "unit": unit,
                        "max": round(max(seconds_list) * 1000, 2), "runs": len(seconds_list)})

    # First frame, in turns.
    firsts = {size: [] for size, _ in databases}
    for run in range(args.runs + 1):
        for size, path in databases:
            seconds = first_frame(args.todo, path)
            if run > 0:  # run 0 warms the page cache
                firsts[size].append(seconds)
    for size, _ in databases:
        record("ui-first-frame", size, firsts[size])

    largest, path = databases[-1]
    ui = UI(args.todo, path)
    ui.read_until(lambda output: FOOTER in output)
    ui.settle(0.5)  # the counts arrive after the first frame

    # Each keystroke draws a frame at once (the input line, the loaded rows
    # that match, "searching…"), then the frame with the query's rows. Nothing
    # matches "jo", and two letters are too few for the trigram index: its
    # rows are in only when the search has read every todo.
    for query in ("quokk", "k", "den", "jo"):
        ui.press(b"/", ends_prompt(""))
        echoes, results = [], []
        for n in range(1, len(query) + 1):
            echo, shown = ui.press_stages(query[n - 1].encode(), ends_prompt(query[:n]), shows_results(query[:n]))
            echoes.append(echo)
            results.append(shown)
            ui.settle()
        record(f"ui-query-{query}", largest, results)
        record(f"ui-query-{query}-first", largest, echoes)
        ui.press(b"\x1b", lines_written(2))  # Escape clears the query
        ui.settle()

    height = ROWS - 2
    moves, pages = [], []
    for _ in range(1 if args.quick else 3):
        ui.press(b"g", lambda output: True)
        ui.settle()
        for _ in range(height - 1):  # down the screen, no scrolling: two lines each
            moves.append(ui.press(b"j", lines_written(2)))
            ui.settle(0.02)
        for _ in range(10):  # a page at a time: every row, and windows loaded on the way
            pages.append(ui.press(b"\x1b[6~", lines_written(height)))
            ui.settle(0.02)
    record("ui-move-j", largest, moves)
    record("ui-move-pgdn", largest, pages)

    ui.settle(1.5)
    before, start = ui.cpu_seconds(), time.perf_counter()
    time.sleep(2 if args.quick else 10)
    idle = (ui.cpu_seconds() - before) / (time.perf_counter() - start)
    figures.append({"name": "ui-idle-cpu", "size": largest, "tool": "todo", "value": round(idle * 1000, 2),
                    "unit": "ms CPU per second"})
    ui.quit()

    print("| todo ui | todos | median | slowest |")
    print("|---|---:|---:|---:|")
    labels = {
        "ui-first-frame": "first frame (start to footer drawn)",
        "ui-query-quokk": "query keystroke, q-u-o-k-k (1% match)",
        "ui-query-k": "query keystroke, k (half match)",
        "ui-query-den": "query keystroke, d-e-n (28% match)",
        "ui-query-jo": "query keystroke, j-o (no match)",
        "ui-query-quokk-first": "query keystroke, q-u-o-k-k: its first frame",
        "ui-query-k-first": "query keystroke, k: its first frame",
        "ui-query-den-first": "query keystroke, d-e-n: its first frame",
        "ui-query-jo-first": "query keystroke, j-o: its first frame (\"searching…\")",
        "ui-move-j": "move the selection one row (j)",
        "ui-move-pgdn": "move a page (PgDn)",
    }
    for figure in figures:
        if figure["name"] in labels:
            print(f"| {labels[figure['name']]} | {figure['size']:,} | {figure['value']:.1f} ms | {figure['max']:.1f} ms |")
    print(f"| idle: CPU used per second | {largest:,} | {idle * 1000:.2f} ms | – |")
    if len(databases) > 1:
        small, large = statistics.median(firsts[databases[0][0]]), statistics.median(firsts[largest])
        print(f"\nFirst frame at {largest:,} todos is {large / small:.2f}x the first frame at {databases[0][0]:,}"
              f" (medians of {args.runs} runs each, in turns).")
    if args.figures:
        with open(args.figures, "a") as out:
            for figure in figures:
                out.write(json.dumps({key: figure[key] for key in ("name", "size", "tool", "value", "unit")}) + "\n")


if __name__ == "__main__":
    sys.exit(main())
