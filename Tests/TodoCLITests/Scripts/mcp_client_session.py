"""Drives `todo mcp` with the official Python MCP client (PyPI `mcp`), as an
assistant's host would: initialize, list the tools, call each one, dry runs,
errors, an undo of the assistant's change, and a sync with a json-server-style
server. Run by MCPClientTests; prints one line per check and exits non-zero on
the first that fails.

    mcp_client_session.py TODO_BINARY DATABASE JSON_SERVER_SCRIPT
"""

import asyncio
import json
import signal
import subprocess
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

TODO, DATABASE, JSON_SERVER = sys.argv[1:4]

# A test runner's threads block signals, and a process it starts inherits the
# mask: unblocked here, so the client can end the processes it starts.
signal.pthread_sigmask(signal.SIG_SETMASK, [])


def todo(*arguments):
    """Runs the todo command line on the same database, as the user would."""
    done = subprocess.run([TODO, *arguments, "--database", DATABASE], capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"todo {' '.join(arguments)} failed: {done.stderr}")
    return done.stdout


def stored():
    return json.loads(todo("list", "--all", "--json"))


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print("ok:", what, flush=True)


async def session(body):
    parameters = StdioServerParameters(command=TODO, args=["mcp", "--database", DATABASE])
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as client:
            initialized = await client.initialize()
            check(initialized.protocol_version == "2025-11-25", "the 2025-11-25 revision is spoken")
            check(initialized.server_info.name == "todo", "the server says it is todo")
            await body(client)


async def call(client, tool, arguments):
    result = await client.call_tool(tool, arguments)
    if result.is_error:
        raise AssertionError(f"{tool} {arguments} failed: {result.content[0].text}")
    check(json.loads(result.content[0].text) == result.structured_content, f"{tool} answers its JSON as text too")
    return result.structured_content


async def refused(client, tool, arguments):
    before = stored()
    result = await client.call_tool(tool, arguments)
    check(result.is_error, f"{tool} {arguments} is refused")
    message = result.content[0].text
    check("\n" not in message.split(":")[0] and len(message) > 10, f"with a message: {message}")
    check(stored() == before, f"and nothing is written by a refused {tool}")
    return message


async def offline(client):
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    check(set(tools) == {"list_todos", "next_todos", "get_todo", "add_todo", "edit_todo", "complete_todo",
                         "reopen_todo", "delete_todo", "undo"}, "every tool is listed, and sync only once a server is remembered")
    for tool in tools.values():
        check(tool.input_schema["type"] == "object" and tool.output_schema["type"] == "object",
              f"{tool.name} has input and output schemas")
        check(tool.description and tool.annotations is not None, f"{tool.name} has a description and annotations")
    check(tools["list_todos"].annotations.read_only_hint is True, "list_todos is read-only")
    check(tools["delete_todo"].annotations.destructive_hint is True, "delete_todo is destructive")
    check(tools["complete_todo"].annotations.idempotent_hint is True, "complete_todo is idempotent")

    # Dry runs answer the todo and change nothing.
    planned = await call(client, "add_todo", {"text": "buy paint", "due": "2031-05-02", "priority": "high",
                                              "tags": ["home"], "dry_run": True})
    check(planned["dry_run"] and planned["changes"][0]["after"]["text"] == "buy paint", "a dry-run add answers the todo")
    check(stored() == [], "and writes nothing")

    added = (await call(client, "add_todo", {"text": "buy paint", "due": "2031-05-02", "priority": "high",
                                             "tags": ["home"], "note": "white, matte"}))["changes"][0]["after"]
    check(len(added["id"]) == 36 and added["due"] == "2031-05-02" and added["tags"] == ["home"], "add_todo adds, named by a full UUID")
    check([todo["id"] for todo in stored()] == [added["id"]], "the command line sees the assistant's todo")
    weekly = (await call(client, "add_todo", {"text": "water plants", "due": "2031-05-01", "repeat": "weekly"}))["changes"][0]["after"]

    listed = await call(client, "list_todos", {"query": "PAI"})
    check([todo["id"] for todo in listed["todos"]] == [added["id"]] and listed["next_cursor"] is None, "list_todos searches")
    check(len((await call(client, "list_todos", {"tags": ["home"], "priority": "high", "sort": "due"}))["todos"]) == 1,
          "list_todos filters by tag and priority")
    ranked = await call(client, "next_todos", {"limit": 5})
    urgencies = [todo["urgency"] for todo in ranked["todos"]]
    check({todo["id"] for todo in ranked["todos"]} == {weekly["id"], added["id"]}
          and urgencies == sorted(urgencies, reverse=True), "next_todos ranks, most urgent first, with each urgency")
    tagged = await call(client, "edit_todo", {"where": {"query": "water"}, "add_tags": ["garden"], "dry_run": True})
    check(tagged["count"] == 1 and tagged["changes"][0]["after"]["tags"] == ["garden"], "edit_todo takes a where")
    got = await call(client, "get_todo", {"id": added["id"][:8]})
    check(got["todo"] == added, "get_todo takes a short ID, as the command line does")

    edited = await call(client, "edit_todo", {"id": added["id"], "text": "buy paint and brushes", "priority": None,
                                              "dry_run": True})
    check(edited["changes"][0]["before"]["text"] == "buy paint" and edited["changes"][0]["after"]["priority"] is None,
          "a dry-run edit answers before and after")
    check(stored()[1]["text"] == "buy paint" or stored()[0]["text"] == "buy paint", "and changes nothing")
    await call(client, "edit_todo", {"id": added["id"], "text": "buy paint and brushes", "add_tags": ["errands"]})
    check(any(t["text"] == "buy paint and brushes" and t["tags"] == ["errands", "home"] for t in stored()), "edit_todo edits")

    completed = await call(client, "complete_todo", {"ids": [weekly["id"]]})
    check(len(completed["changes"]) == 2 and completed["changes"][1]["before"] is None
          and completed["changes"][1]["after"]["due"] == "2031-05-08", "completing a repeating todo brings the next one")
    await call(client, "reopen_todo", {"ids": [weekly["id"]]})
    check(not [t for t in stored() if t["id"] == weekly["id"]][0]["done"], "reopen_todo reopens")

    before = stored()
    deleting = await call(client, "delete_todo", {"ids": [added["id"]], "dry_run": True})
    check(deleting["changes"][0]["after"] is None and stored() == before, "a dry-run delete changes nothing")
    await call(client, "delete_todo", {"ids": [added["id"]]})
    check(all(t["id"] != added["id"] for t in stored()), "delete_todo deletes")
    undone = await call(client, "undo", {})
    check(undone["summary"].startswith("Undid the delete"), "the undo tool takes the delete back")
    check(any(t["id"] == added["id"] and t["note"] == "white, matte" for t in stored()), "with every field")

    # The user's `todo undo` takes back what the assistant did.
    await call(client, "edit_todo", {"id": added["id"], "text": "call the painter"})
    todo("undo")
    check(any(t["id"] == added["id"] and t["text"] == "buy paint and brushes" for t in stored()),
          "todo undo takes back an assistant's edit")

    # Errors: one line, nothing written.
    await refused(client, "add_todo", {"text": "x", "due": "sometime"})
    await refused(client, "add_todo", {"text": ""})
    await refused(client, "edit_todo", {"id": "ffffffff", "text": "y"})
    await refused(client, "list_todos", {"limit": "ten"})
    await refused(client, "complete_todo", {"ids": "9"})
    await refused(client, "add_todo", {"txt": "typo"})

    # Paging.
    for number in range(5):
        await call(client, "add_todo", {"text": f"page {number}", "tags": ["paged"]})
    seen, cursor = [], None
    while True:
        arguments = {"tags": ["paged"], "limit": 2}
        if cursor:
            arguments["cursor"] = cursor
        page = await call(client, "list_todos", arguments)
        check(len(page["todos"]) <= 2, "a page is never longer than the limit")
        seen += [todo["text"] for todo in page["todos"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    check(seen == [f"page {number}" for number in reversed(range(5))], "the pages hold every todo once, newest first")


async def online(client):
    tools = [tool.name for tool in (await client.list_tools()).tools]
    check("sync" in tools, "sync is offered once a server is remembered")
    planned = await call(client, "sync", {"dry_run": True})
    check(planned["dry_run"] and planned["summary"].startswith("Dry run"), "a dry-run sync says what it would do")
    synced = await call(client, "sync", {})
    check(synced["pushed"] == 1 and not synced["dry_run"], "sync sends the assistant's todo")


async def main():
    await session(offline)
    server = subprocess.Popen([sys.executable, JSON_SERVER, "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().strip().rsplit(":", 1)[1]
        todo("sync", "--server", f"http://127.0.0.1:{port}/todos")
        todo("add", "made after the first sync")
        await session(online)
    finally:
        server.terminate()
        server.wait()
    print("all checks passed")


asyncio.run(main())
