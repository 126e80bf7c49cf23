-- What many people's syncing clients send todo-server at once: each request
-- from a random account, in the mix a sync makes. Used by Benchmarks/run.sh:
--
--   wrk -c64 -s Benchmarks/mixed.lua URL -- TOKENS_FILE TODOS_PER_ACCOUNT [RUN [LISTS_FILE]]
--
-- RUN names the todos this run creates (default: the time), so that runs on
-- one database do not collide.
-- TOKENS_FILE holds one account's token per line. Each account holds the todos
-- t1..tN (N = TODOS_PER_ACCOUNT) with feed positions 1..N. The mix, per 100
-- requests: 30 feed reads (`GET /todos?_since=N`: what changed since the
-- seeded todos), 25 GET by id, 20 PATCH, 10 POST, 10 DELETE (of a todo this
-- thread created a while before, in the same account), 5 batches of 20 PATCHes.
--
-- With LISTS_FILE (Benchmarks/accounts.py --lists: a line per account, the
-- paths of the lists it is in), half the requests go to one of the account's
-- shared lists instead (`/lists/OWNER/family/todos…`, its todos t1..t20), as
-- a member's client syncing its own todos and the lists it joined would.

local tokens = {}
local lists = {}
-- How many of an owner's todos (t1..tN) are on its list (accounts.py's LIST_TODOS, at most all).
local listTodos = 20
local perAccount = 100
local run = ""
thread_id = 0
local created = 0
local deleted = 0
local counter = 0

local threads = {}
local next_thread = 0
function setup(thread)
    thread:set("thread_id", next_thread)
    next_thread = next_thread + 1
    table.insert(threads, thread)
end

function init(args)
    for line in io.lines(args[1]) do
        if #line > 0 then table.insert(tokens, line) end
    end
    perAccount = tonumber(args[2]) or perAccount
    listTodos = math.min(listTodos, perAccount)
    run = args[3] or tostring(os.time())
    if args[4] then
        for line in io.lines(args[4]) do
            local paths = {}
            for path in line:gmatch("%S+") do table.insert(paths, path) end
            table.insert(lists, paths)
        end
    end
    math.randomseed(os.time() + thread_id * 7919)
end

local function account_of(n)
    -- The account a created todo lives in, the same for its POST and its DELETE.
    return (n * 7919 + thread_id * 104729) % #tokens + 1
end

-- Where request n of an account goes: its own todos, or (with lists) half
-- the time one of its lists: the collection, how many todos it has, and what
-- a create there says of its project.
local function place(account, n)
    local paths = lists[account]
    if paths == nil or #paths == 0 or n % 2 == 0 then return "/todos", perAccount, "" end
    return paths[math.floor(n / 2) % #paths + 1] .. "/todos", listTodos, ',"project":"family"'
end

local function headers(account)
    return { ["Authorization"] = "Bearer " .. tokens[account], ["Content-Type"] = "application/json" }
end

function request()
    counter = counter + 1
    local slot = counter % 100
    local account = math.random(#tokens)
    local todos, count, project = place(account, math.random(1000000))
    local todo = "t" .. math.random(count)
    if slot < 30 then
        return wrk.format("GET", todos .. "?_since=" .. perAccount, headers(account))
    elseif slot < 55 then
        return wrk.format("GET", todos .. "/" .. todo, headers(account))
    elseif slot < 75 then
        local body = '{"completed":' .. (math.random(2) == 1 and "true" or "false") .. '}'
        return wrk.format("PATCH", todos .. "/" .. todo, headers(account), body)
    elseif slot < 85 then
        created = created + 1
        local id = "m" .. run .. "-" .. thread_id .. "-" .. created
        local owner = account_of(created)
        local into, _, its = place(owner, created)
        return wrk.format("POST", into, headers(owner),
            '{"id":"' .. id .. '","title":"written under load","completed":false' .. its .. '}')
    elseif slot < 95 and deleted + 200 < created then
        -- Well behind the creates, so that its POST has long been answered.
        deleted = deleted + 1
        local owner = account_of(deleted)
        local from = place(owner, deleted)
        return wrk.format("DELETE", from .. "/m" .. run .. "-" .. thread_id .. "-" .. deleted, headers(owner))
    elseif slot < 95 then
        return wrk.format("GET", todos .. "/" .. todo, headers(account))
    else
        local operations = {}
        for _ = 1, 20 do
            table.insert(operations, '{"method":"PATCH","id":"t' .. math.random(count)
                .. '","body":{"title":"edited in a batch"}}')
        end
        return wrk.format("POST", todos .. "/_batch", headers(account),
            '{"operations":[' .. table.concat(operations, ",") .. ']}')
    end
end

failures = 0
function response(status, headers, body)
    if status >= 300 then
        failures = failures + 1
    end
end

function done(summary, latency, requests)
    local failed = 0
    for _, thread in ipairs(threads) do
        failed = failed + (thread:get("failures") or 0)
    end
    io.write(string.format("mixed: %.1f requests/s, p50 %.2f ms, p99 %.2f ms, %d not 2xx\n",
        summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
        latency:percentile(99) / 1000, failed))
end
