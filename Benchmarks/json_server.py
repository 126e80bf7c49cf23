#!/usr/bin/env python3
"""A small json-server-style server for benchmarking `todo sync` against a
server with none of todo-server's extras (no ETag, no change feed).

    json_server.py --port PORT --data FILE.json

Serves /todos like json-server: GET (a bare array), POST (201; keeps a client
id, else assigns one), GET/PUT/PATCH/DELETE /todos/:id (404 if missing;
DELETE answers the deleted item). Data lives in memory, loaded from FILE.
"""
import argparse
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
items = {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, value=None):
        body = b"" if value is None else json.dumps(value, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length) or b"{}")

    def route(self):
        parts = self.path.split("?")[0].strip("/").split("/")
        if parts[0] != "todos" or len(parts) > 2:
            return None, None
        return True, (parts[1] if len(parts) == 2 else None)

    def do_GET(self):
        ok, item_id = self.route()
        if not ok:
            return self.reply(404, {})
        with lock:
            if item_id is None:
                return self.reply(200, list(items.values()))
            item = items.get(item_id)
        self.reply(200, item) if item else self.reply(404, {})

    def do_POST(self):
        ok, item_id = self.route()
        if not ok or item_id is not None:
            return self.reply(404, {})
        item = self.body()
        item["id"] = str(item.get("id") or uuid.uuid4().hex[:11])
        with lock:
            items[item["id"]] = item
        self.reply(201, item)

    def write(self, merge):
        ok, item_id = self.route()
        if not ok or item_id is None:
            return self.reply(404, {})
        change = self.body()
        change.pop("id", None)
        with lock:
            if item_id not in items:
                return self.reply(404, {})
            item = dict(items[item_id], **change) if merge else dict(change, id=item_id)
            items[item_id] = item
        self.reply(200, item)

    def do_PUT(self):
        self.write(merge=False)

    def do_PATCH(self):
        self.write(merge=True)

    def do_DELETE(self):
        ok, item_id = self.route()
        with lock:
            item = items.pop(item_id, None) if ok and item_id else None
        self.reply(200, item) if item else self.reply(404, {})


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--data", required=True)
    args = parser.parse_args()
    with open(args.data, encoding="utf-8") as file:
        for item in json.load(file):
            items[str(item["id"])] = item
    ThreadingHTTPServer(("127.0.0.1", args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
