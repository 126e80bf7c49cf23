#!/usr/bin/env python3
"""A small json-server-style server for benchmarking `todo sync` against a
server with none of todo-server's extras (no ETag, no change feed).

    json_server.py --port PORT [--data FILE.json] [--paging MODE --page-size N]

Serves /todos like json-server: GET (a bare array), POST (201; keeps a client
id, else assigns one), GET/PUT/PATCH/DELETE /todos/:id (404 if missing;
DELETE answers the deleted item). Data lives in memory, loaded from FILE.

--paging makes GET /todos answer one page of the items, sorted by id, as
servers that page by default do:
  link      json-server 0.17: `_page` (from 1) and `_limit`, a bare array with
            `Link: <...>; rel="next"` and `X-Total-Count`
  envelope  json-server 1.0: `_page` (from 1) and `_per_page`, answered as
            {"first", "prev", "next", "last", "pages", "items", "data"}
  silent    no header, no envelope: the first page only, unless asked with
            `page` (from 0) and `size`
"""
import argparse
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

lock = threading.Lock()
items = {}
paging = {"mode": "none", "size": 10}
sorted_cache = {"items": None}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body leave in separate writes: without this, Nagle's algorithm
    # and the client's delayed ACK hold every response back 40 ms.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def reply(self, status, value=None, headers=()):
        body = b"" if value is None else json.dumps(value, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, text in headers:
            self.send_header(name, text)
        self.end_headers()
        self.wfile.write(body)

    def page(self, listed):
        """One page of the list, as the --paging mode answers it."""
        mode, default = paging["mode"], paging["size"]
        query = parse_qs(urlsplit(self.path).query)

        def number(name, fallback):
            try:
                return max(int(query[name][0]), 0) if name in query else fallback
            except ValueError:
                return fallback

        # Sorted once per change, as a real server's index would be: paging is
        # then a slice, and a benchmark of paged reads times the client, not this.
        if sorted_cache["items"] is None:
            sorted_cache["items"] = sorted(listed, key=lambda item: str(item["id"]))
        listed = sorted_cache["items"]
        if mode == "silent":
            size = number("size", default) or default
            first = number("page", 0) * size
            return self.reply(200, listed[first:first + size])
        size = number("_limit" if mode == "link" else "_per_page", default) or default
        page = max(number("_page", 1), 1)
        pages = max((len(listed) + size - 1) // size, 1)
        data = listed[(page - 1) * size:page * size]
        if mode == "envelope":
            return self.reply(200, {
                "first": 1, "prev": page - 1 if page > 1 else None, "next": page + 1 if page < pages else None,
                "last": pages, "pages": pages, "items": len(listed), "data": data,
            })
        headers = [("X-Total-Count", str(len(listed)))]
        if page < pages:
            headers.append(("Link", f'</todos?_page={page + 1}&_limit={size}>; rel="next", '
                                    f'</todos?_page={pages}&_limit={size}>; rel="last"'))
        self.reply(200, data, headers)

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
                listed = list(items.values())
                # Fields as filters (?clientId=...), as json-server takes them.
                filters = {key: values[0] for key, values in parse_qs(urlsplit(self.path).query).items()
                           if not key.startswith("_") and key not in ("page", "size")}
                if filters:
                    return self.reply(200, [item for item in listed
                                            if all(str(item.get(key)) == value for key, value in filters.items())])
                if paging["mode"] != "none":
                    return self.page(listed)
                return self.reply(200, listed)
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
            sorted_cache["items"] = None
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
            sorted_cache["items"] = None
        self.reply(200, item)

    def do_PUT(self):
        self.write(merge=False)

    def do_PATCH(self):
        self.write(merge=True)

    def do_DELETE(self):
        ok, item_id = self.route()
        with lock:
            item = items.pop(item_id, None) if ok and item_id else None
            sorted_cache["items"] = None
        self.reply(200, item) if item else self.reply(404, {})


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True, help="0 picks a free port (printed)")
    parser.add_argument("--data")
    parser.add_argument("--paging", choices=["none", "link", "envelope", "silent"], default="none")
    parser.add_argument("--page-size", type=int, default=10)
    args = parser.parse_args()
    paging.update(mode=args.paging, size=args.page_size)
    if args.data:
        with open(args.data, encoding="utf-8") as file:
            for item in json.load(file):
                items[str(item["id"])] = item
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"listening on 127.0.0.1:{server.server_port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
