#!/usr/bin/env python3
"""`todo mcp` timed as a client sees it, speaking JSON-RPC over its pipes (no
client library, so the figure is the server's):

    mcp_bench.py --todo PATH --database FILE [--query qu] [--limit 50] [--rounds 200] [--starts 30]

- initialize: from starting the process to the initialize answer read, the median
  of --starts fresh processes;
- list: one list_todos round trip (query, limit) on one long-lived process, the
  median of --rounds after 5 warm-up calls.

Prints one JSON object: {"initialize_ms": ..., "list_ms": ..., "listed": N}.
"""
import argparse
import json
import statistics
import subprocess
import time

INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "mcp_bench", "version": "1"}}}


def start(arguments):
    process = subprocess.Popen([arguments.todo, "mcp", "--database", arguments.database],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return process


def ask(process, message):
    process.stdin.write((json.dumps(message) + "\n").encode())
    process.stdin.flush()
    while True:
        answer = json.loads(process.stdout.readline())
        if answer.get("id") == message["id"]:
            return answer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--todo", required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--query", default="qu")
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--starts", type=int, default=30)
    arguments = parser.parse_args()

    starts = []
    for _ in range(arguments.starts):
        began = time.perf_counter()
        process = start(arguments)
        ask(process, INITIALIZE)
        starts.append(time.perf_counter() - began)
        process.stdin.close()
        process.wait()

    process = start(arguments)
    ask(process, INITIALIZE)
    process.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    call = {"jsonrpc": "2.0", "method": "tools/call",
            "params": {"name": "list_todos", "arguments": {"query": arguments.query, "limit": arguments.limit}}}
    rounds, listed = [], 0
    for number in range(5 + arguments.rounds):
        began = time.perf_counter()
        answer = ask(process, dict(call, id=number + 1))
        if number >= 5:
            rounds.append(time.perf_counter() - began)
        listed = len(answer["result"]["structuredContent"]["todos"])
    process.stdin.close()
    process.wait()
    print(json.dumps({"initialize_ms": round(statistics.median(starts) * 1000, 2),
                      "list_ms": round(statistics.median(rounds) * 1000, 2), "listed": listed}))


if __name__ == "__main__":
    main()
