#!/usr/bin/env bash
# Benchmarks: `todo` and `todo-server` side by side with the sqlite3 shell doing the
# same SQL (the floor), and with Taskwarrior and todo.txt where installed.
#
#   Benchmarks/run.sh [--sizes 1000,100000,1000000] [--quick] [--ui-only] [--pg-only] [--sync-only] [--caldav-only] [--live-only] [--peer-max 100000] [--out FILE]
#
# Builds release binaries, generates seeded data sets (Benchmarks/generate.py),
# times whole processes with hyperfine after warm-up, and prints a markdown table
# of medians with the ratio of each todo figure to its floor and to each peer.
# --quick: sizes 1000 and 2000 only, few runs, debug binaries: checks that the script
#   works (CI runs it); its figures say nothing of speed.
# --ui-only: only `todo ui` (Benchmarks/ui_bench.py, through a pseudo-terminal).
# --pg-only: only todo-server on PostgreSQL, beside SQLite in the same run.
# --sync-only: only todo-server on SQLite and todo sync (first, no-op, pushing, paged).
# --caldav-only: only CalDAV: todo-server beside Radicale, todo sync beside vdirsyncer (caldav_bench.py, caldav_client_bench.py;
#   Radicale and vdirsyncer from .build/venv, which .ci/run makes).
# --live-only: only live sync (Benchmarks/live_bench.py: todo ui in pseudo-terminals).
# Needs: swift, python3, sqlite3, hyperfine; optional: wrk (server throughput),
# task (Taskwarrior 2.6), todo-txt (todo.txt CLI).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
sizes=1000,100000,1000000
quick=0
ui_only=0
pg_only=0
sync_only=0
caldav_only=0
live_only=0
peer_max=100000
out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --sizes) sizes=$2; shift 2 ;;
        --quick) quick=1; shift ;;
        --ui-only) ui_only=1; shift ;;
        --pg-only) pg_only=1; shift ;;
        --sync-only) sync_only=1; shift ;;
        --caldav-only) caldav_only=1; shift ;;
        --live-only) live_only=1; shift ;;
        --peer-max) peer_max=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
    esac
done
if [ "$quick" = 1 ]; then
    sizes=1000,2000; runs=(--warmup 1 --runs 3); wrk_time=2s
else
    runs=(--warmup 3 --min-runs 10); wrk_time=10s
fi
for tool in swift python3 sqlite3 $([ "$ui_only" = 1 ] || echo hyperfine); do
    command -v "$tool" >/dev/null || { echo "run.sh: $tool is required (apt-get install $tool)" >&2; exit 1; }
done

work=$root/Benchmarks/data
results=$work/results
rm -rf "$results"; mkdir -p "$results"
if [ "$quick" = 1 ]; then
    # A check that the script works, not of speed: the debug binaries, which
    # `swift test` has just built in CI, spare a release build of several minutes.
    echo "== building debug binaries (--quick)" >&2
    release=()
else
    echo "== building release binaries" >&2
    # Fully static: no dynamic loader, no shared libraries to map and relocate, and
    # (without --export-dynamic) no symbol table for start-up lookups to scan. That
    # takes about a third off the time every `todo` command needs before any work.
    release=(-c release -Xswiftc -static-executable -Xlinker --no-export-dynamic)
fi
(cd "$root" && swift build ${release[@]+"${release[@]}"} --product todo >&2)
[ "$ui_only" = 1 ] || (cd "$root" && swift build ${release[@]+"${release[@]}"} --product todo-server >&2)
bin=$(cd "$root" && swift build ${release[@]+"${release[@]}"} --show-bin-path)
todo=$bin/todo
server=$bin/todo-server

# bench NAME SIZE TOOL [hyperfine options...] -- COMMAND
# Times COMMAND and records its median under (NAME, SIZE, TOOL).
bench() {
    local name=$1 size=$2 tool=$3; shift 3
    local options=()
    while [ "$1" != "--" ]; do options+=("$1"); shift; done
    shift
    hyperfine "${runs[@]}" -N --style none "${options[@]}" \
        --export-json "$results/$name@$size@$tool.json" "$(printf '%q ' "$@")" >/dev/null 2>"$results/$name@$size@$tool.err" \
        || { echo "run.sh: $name ($tool, $size) failed: $(tail -3 "$results/$name@$size@$tool.err")" >&2; return 1; }
}
# bench_turns NAME [SIZE TOOL PREPARE COMMAND]...: like bench for each COMMAND
# (after PREPARE, if not empty), but one run of each in turn, so the machine's
# drift (up to 30% between minutes here) weighs on all alike. For figures
# compared with each other when minutes apart would decide: a first sync and its
# floor, and add and done at the smallest and the largest size.
bench_turns() {
    local name=$1; shift
    local pairs=$([ "$quick" = 1 ] && echo 3 || echo 15) run index
    local keys=() prepares=() commands=()
    while [ $# -gt 0 ]; do keys+=("$name@$1@$2"); prepares+=("$3"); commands+=("$4"); shift 4; done
    for run in 0 $(seq "$pairs"); do # run 0 warms up
        for index in "${!keys[@]}"; do
            local key=${keys[$index]} options=()
            [ -n "${prepares[$index]}" ] && options=(--prepare "${prepares[$index]}")
            hyperfine --runs 1 -N --style none "${options[@]}" --export-json "$results/$key.$run.part" \
                "${commands[$index]}" >/dev/null 2>"$results/$key.err" \
                || { echo "run.sh: $key failed: $(tail -3 "$results/$key.err")" >&2; return 1; }
            [ "$run" = 0 ] && rm -f "$results/$key.0.part"
        done
    done
    for key in "${keys[@]}"; do
        python3 - "$results/$key" <<'MERGE'
import glob, json, statistics, sys
parts = [json.load(open(path))["results"][0] for path in sorted(glob.glob(sys.argv[1] + ".*.part"))]
times = [time for part in parts for time in part["times"]]
json.dump({"results": [dict(parts[0], times=times, mean=statistics.mean(times), median=statistics.median(times),
                            stddev=statistics.stdev(times) if len(times) > 1 else None,
                            min=min(times), max=max(times))]}, open(sys.argv[1] + ".json", "w"))
MERGE
        rm -f "$results/$key".*.part
    done
}

# record NAME SIZE TOOL VALUE UNIT: a figure not timed by hyperfine.
# The report of every figure recorded, printed and written to --out.
print_report() {
    local report
    report=$(python3 "$root/Benchmarks/report.py" "$results")
    if [ -n "$out" ]; then printf '%s\n' "$report" > "$out"; fi
    printf '%s\n' "$report"
}
record() { printf '{"name":"%s","size":%s,"tool":"%s","value":%s,"unit":"%s"}\n' "$@" >> "$results/figures.jsonl"; }
sql() { sqlite3 -cmd "PRAGMA synchronous=NORMAL" "$@"; }

floor_id_sql="lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))"
now_ms="CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"

IFS=, read -r -a size_list <<< "$sizes"
largest=${size_list[-1]}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() { for _ in $(seq 100); do curl -s -o /dev/null "$1" && return 0; sleep 0.1; done; echo "run.sh: nothing answers at $1" >&2; return 1; }
server_pid=""
trap '[ -n "$server_pid" ] && kill $server_pid 2>/dev/null || true' EXIT

# start_todo_server SIZE: a todo-server holding SIZE todos; sets port and server_pid.
start_todo_server() {
    local size=$1 dir=$work/server-$1
    rm -rf "$dir"; mkdir -p "$dir"
    port=$(free_port)
    "$server" --port "$port" --database "$dir/server.sqlite" 2>/dev/null &
    server_pid=$!
    wait_for "http://127.0.0.1:$port/health"
    kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
    python3 "$root/Benchmarks/generate.py" --size "$size" --format server-sql --out "$dir/items.sql"
    sqlite3 "$dir/server.sqlite" < "$dir/items.sql"
    "$server" --port "$port" --database "$dir/server.sqlite" 2>/dev/null &
    server_pid=$!
    wait_for "http://127.0.0.1:$port/health"
}
stop_server() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=""; }
# account_server SIZE: start_todo_server's todos moved to a new account, bench, whose
# token it sets; the server restarts to see it has accounts. Sets item to a todo's id.
account_server() {
    local dir=$work/server-$1
    item=$(sqlite3 "$dir/server.sqlite" "SELECT id FROM item WHERE deleted = 0 LIMIT 1")
    stop_server
    token=$("$server" user add bench --database "$dir/server.sqlite" 2>/dev/null)
    sqlite3 "$dir/server.sqlite" "UPDATE item SET account = (SELECT id FROM account WHERE name = 'bench');
        UPDATE account SET lastChangeSeq = (SELECT max(changeSeq) FROM item) WHERE name = 'bench'"
    "$server" --port "$port" --database "$dir/server.sqlite" 2>/dev/null &
    server_pid=$!
    wait_for "http://127.0.0.1:$port/todos/$item"
}

# ---- todo-server on PostgreSQL -------------------------------------------------------
# A private cluster (as the postgres user when run as root: PostgreSQL refuses root),
# with PostgreSQL's default durability (fsync, synchronous commit), as SQLite's `full`.
# The same wrk runs as above with an account's token, taking turns with a SQLite
# todo-server holding the same number of todos (each figure the median of 3 turns, 1
# with --quick), so both see the same machine; then on two instances of one database at
# once (their req/s summed); then 50 writers across both for 30 s (3 s with --quick),
# whose acknowledged creates are counted in the database.
pg_bin=/usr/lib/postgresql/15/bin
# start_postgres: a private cluster on a free port ($pgport, data in $pgdir), stopped
# at exit; psql_bench SQL [DATABASE] runs SQL in it.
start_postgres() {
    pgdir=$work/pg
    rm -rf "$pgdir"; mkdir -p "$pgdir"
    as_pg=()
    if [ "$(id -u)" = 0 ]; then chown postgres "$pgdir"; as_pg=(runuser -u postgres --); fi
    pgport=$(free_port)
    (cd /tmp && "${as_pg[@]}" "$pg_bin/initdb" -D "$pgdir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null)
    (cd /tmp && "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$pgdir/data" -l "$pgdir/log" -w start \
        -o "-c listen_addresses=127.0.0.1 -p $pgport -k $pgdir -c max_connections=200" >/dev/null)
    second_pid="" third_pid="" fourth_pid=""
    trap '[ -n "$server_pid" ] && kill $server_pid 2>/dev/null; [ -n "$second_pid" ] && kill $second_pid 2>/dev/null;
        [ -n "$third_pid" ] && kill $third_pid 2>/dev/null; [ -n "$fourth_pid" ] && kill $fourth_pid 2>/dev/null;
        (cd /tmp && "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$pgdir/data" -m immediate stop >/dev/null 2>&1) || true' EXIT
}
stop_postgres() { (cd /tmp && "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$pgdir/data" -m fast stop >/dev/null); }
psql_bench() { "$pg_bin/psql" -h 127.0.0.1 -p "$pgport" -U postgres -d "${2:-bench}" -X -A -t -q -c "$1"; }
postgres_benchmarks() {
if [ -x "$pg_bin/initdb" ] && command -v wrk >/dev/null; then
    pgsize=$([ "$quick" = 1 ] && echo 1000 || echo 100000)
    writers_time=$([ "$quick" = 1 ] && echo 3s || echo 30s)
    echo "== todo-server on PostgreSQL with $pgsize todos" >&2
    start_postgres
    psql_bench "CREATE DATABASE bench" postgres
    pgurl="postgres://postgres@127.0.0.1:$pgport/bench?sslmode=disable"
    token=$("$server" user add bench --database "$pgurl" 2>/dev/null)
    psql_bench "INSERT INTO item (account, id, body, version, updated_at, change_seq)
        SELECT a.id, 't' || g, jsonb_build_object('id', 't' || g, 'title', 'todo number ' || g, 'completed', g % 2 = 0,
            'version', 1, 'updatedAt', '2026-11-21T09:30:00.000Z'), 1, 1795253400000, g
        FROM account AS a, generate_series(1, $pgsize) AS g WHERE a.name = 'bench';
        UPDATE account SET last_change_seq = $pgsize WHERE name = 'bench'"
    psql_bench "VACUUM ANALYZE item"
    pdir=$work/pg-bench; mkdir -p "$pdir"
    printf 'wrk.headers["Authorization"] = "Bearer %s"\n' "$token" > "$pdir/auth.lua"
    printf 'wrk.method = "POST"\nwrk.body = "{\\"title\\": \\"written under load\\"}"\nwrk.headers["Content-Type"] = "application/json"\n' > "$pdir/post.lua"
    cat "$pdir/post.lua" "$pdir/auth.lua" > "$pdir/post-auth.lua"
    # Many people at once (Benchmarks/mixed.lua): 1,000 accounts of 100 todos each (50 of
    # 10 with --quick), 64 connections, each request from a random account, in the mix a
    # syncing client makes; a SQLite todo-server and one on PostgreSQL in turns (3 turns,
    # 1 with --quick), so both see the same machine. Throughput and p99 latency.
    many=$([ "$quick" = 1 ] && echo 50 || echo 1000)
    per=$([ "$quick" = 1 ] && echo 10 || echo 100)
    python3 "$root/Benchmarks/accounts.py" --accounts "$many" --todos "$per" --dialect postgres --sql "$pdir/many-pg.sql" --tokens "$pdir/tokens.txt"
    python3 "$root/Benchmarks/accounts.py" --accounts "$many" --todos "$per" --dialect sqlite --sql "$pdir/many-sqlite.sql" --tokens "$pdir/tokens.txt"
    # The same accounts sharing lists as families do (accounts.py --lists): each in 3
    # lists of 5 members, and half of each one's requests to one of its lists.
    python3 "$root/Benchmarks/accounts.py" --accounts "$many" --todos "$per" --dialect postgres --sql "$pdir/shared-pg.sql" --tokens "$pdir/tokens.txt" --lists "$pdir/lists.txt"
    python3 "$root/Benchmarks/accounts.py" --accounts "$many" --todos "$per" --dialect sqlite --sql "$pdir/shared-sqlite.sql" --tokens "$pdir/tokens.txt" --lists "$pdir/lists.txt"
    psql_bench "CREATE DATABASE many" postgres
    manyurl="postgres://postgres@127.0.0.1:$pgport/many?sslmode=disable"
    sqdir=$work/server-many; rm -rf "$sqdir"; mkdir -p "$sqdir"
    "$server" user list --database "$manyurl" >/dev/null 2>&1 || true # creates the schema
    "$server" user list --database "$sqdir/server.sqlite" >/dev/null 2>&1 || true
    "$pg_bin/psql" -h 127.0.0.1 -p "$pgport" -U postgres -d many -X -q -v ON_ERROR_STOP=1 -f "$pdir/many-pg.sql" >/dev/null
    psql_bench "VACUUM ANALYZE" many
    sqlite3 "$sqdir/server.sqlite" < "$pdir/many-sqlite.sql"
    psql_bench "CREATE DATABASE shared" postgres
    sharedurl="postgres://postgres@127.0.0.1:$pgport/shared?sslmode=disable"
    "$server" user list --database "$sharedurl" >/dev/null 2>&1 || true
    "$server" user list --database "$sqdir/shared.sqlite" >/dev/null 2>&1 || true
    "$pg_bin/psql" -h 127.0.0.1 -p "$pgport" -U postgres -d shared -X -q -v ON_ERROR_STOP=1 -f "$pdir/shared-pg.sql" >/dev/null
    psql_bench "VACUUM ANALYZE" shared
    sqlite3 "$sqdir/shared.sqlite" < "$pdir/shared-sqlite.sql"
    # start_pair DATABASE DATABASE2: a todo-server on each, at $port ($server_pid) and $port2 ($second_pid).
    start_pair() {
        port=$(free_port); port2=$(free_port)
        "$server" --port "$port" --database "$1" 2>/dev/null &
        server_pid=$!
        "$server" --port "$port2" --database "$2" 2>/dev/null &
        second_pid=$!
        wait_for "http://127.0.0.1:$port/health"; wait_for "http://127.0.0.1:$port2/health"
    }
    start_pair "$sqdir/server.sqlite" "$manyurl"
    port3=$(free_port); port4=$(free_port)
    "$server" --port "$port3" --database "$sqdir/shared.sqlite" 2>/dev/null &
    third_pid=$!
    "$server" --port "$port4" --database "$sharedurl" 2>/dev/null &
    fourth_pid=$!
    wait_for "http://127.0.0.1:$port3/health"; wait_for "http://127.0.0.1:$port4/health"
    # mixed URL RUN [LISTS]: "RPS P99 FAILED" of one wrk run of the mix.
    mixed() {
        wrk -t2 -c64 -d"$wrk_time" -s "$root/Benchmarks/mixed.lua" "$1" -- "$pdir/tokens.txt" "$per" "$2" ${3:+"$3"} \
            | awk '/^mixed:/ {print $2, $8, $10}'
    }
    median() { python3 -c 'import statistics, sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }
    turns=$([ "$quick" = 1 ] && echo 1 || echo 3)
    sq_rps=() sq_p99=() pg_rps=() pg_p99=() ssq_rps=() ssq_p99=() spg_rps=() spg_p99=() failed=0
    # The four in turns: unshared and shared, on each backend.
    for turn in $(seq "$turns"); do
        read -r rps p99 bad <<< "$(mixed "http://127.0.0.1:$port" "s$turn")"
        sq_rps+=("$rps"); sq_p99+=("$p99"); failed=$((failed + bad))
        read -r rps p99 bad <<< "$(mixed "http://127.0.0.1:$port3" "s$turn" "$pdir/lists.txt")"
        ssq_rps+=("$rps"); ssq_p99+=("$p99"); failed=$((failed + bad))
        read -r rps p99 bad <<< "$(mixed "http://127.0.0.1:$port2" "p$turn")"
        pg_rps+=("$rps"); pg_p99+=("$p99"); failed=$((failed + bad))
        read -r rps p99 bad <<< "$(mixed "http://127.0.0.1:$port4" "p$turn" "$pdir/lists.txt")"
        spg_rps+=("$rps"); spg_p99+=("$p99"); failed=$((failed + bad))
    done
    echo "mixed, $many accounts, turns: SQLite ${sq_rps[*]} req/s (p99 ${sq_p99[*]} ms), PostgreSQL ${pg_rps[*]} req/s (p99 ${pg_p99[*]} ms), $failed not 2xx" >&2
    echo "mixed, $many accounts in shared lists, turns: SQLite ${ssq_rps[*]} req/s (p99 ${ssq_p99[*]} ms), PostgreSQL ${spg_rps[*]} req/s (p99 ${spg_p99[*]} ms)" >&2
    if [ "$failed" != 0 ]; then echo "run.sh: the mixed workload met $failed answers not 2xx" >&2; exit 1; fi
    record mixed-many-accounts-sqlite "$many" todo-server "$(median "${sq_rps[@]}")" req/s
    record mixed-many-accounts-sqlite-p99 "$many" todo-server "$(median "${sq_p99[@]}")" ms
    record mixed-many-accounts-pg "$many" todo-server "$(median "${pg_rps[@]}")" req/s
    record mixed-many-accounts-pg-p99 "$many" todo-server "$(median "${pg_p99[@]}")" ms
    record mixed-shared-lists-sqlite "$many" todo-server "$(median "${ssq_rps[@]}")" req/s
    record mixed-shared-lists-sqlite-p99 "$many" todo-server "$(median "${ssq_p99[@]}")" ms
    record mixed-shared-lists-pg "$many" todo-server "$(median "${spg_rps[@]}")" req/s
    record mixed-shared-lists-pg-p99 "$many" todo-server "$(median "${spg_p99[@]}")" ms
    for pid in "$second_pid" "$third_pid" "$fourth_pid"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; done
    second_pid="" third_pid="" fourth_pid=""
    stop_server
    # Two instances of the one-account database, for the writers below.

    start_pair "$pgurl" "$pgurl"
    url=http://127.0.0.1:$port; url2=http://127.0.0.1:$port2
    # 50 writers across both instances, creating todos; then the count: every
    # acknowledged create is a row, and no row is left over beyond the creates still in
    # flight when wrk stopped (at most one per writer).
    before=$(psql_bench "SELECT count(*) FROM item")
    wrk -t1 -c25 -d"$writers_time" -s "$pdir/post-auth.lua" "$url/todos" > "$pdir/writers-1.txt" &
    first=$!
    wrk -t1 -c25 -d"$writers_time" -s "$pdir/post-auth.lua" "$url2/todos" > "$pdir/writers-2.txt"
    wait "$first"
    sleep 1
    after=$(psql_bench "SELECT count(*) FROM item")
    acknowledged=0; failed=0
    for file in "$pdir"/writers-*.txt; do
        acknowledged=$((acknowledged + $(awk '/requests in/ {print $1}' "$file")))
        failed=$((failed + $(awk '/Non-2xx/ {print $NF}' "$file" | grep . || echo 0)))
    done
    acknowledged=$((acknowledged - failed))
    created=$((after - before))
    feed=$(curl -sf -H "Authorization: Bearer $token" "$url2/todos?_since=$pgsize" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["items"]))')
    echo "50 writers on two instances for $writers_time: $acknowledged acknowledged creates, $failed non-2xx, $created rows created, $feed in the feed" >&2
    if [ "$failed" != 0 ] || [ "$created" -lt "$acknowledged" ] || [ "$created" -gt $((acknowledged + 50)) ] || [ "$feed" -lt "$created" ]; then
        echo "run.sh: writes lost, duplicated or refused on PostgreSQL" >&2
        exit 1
    fi
    record writers-50-pg-two-instances "$pgsize" todo-server "$acknowledged" creates
    kill "$second_pid" 2>/dev/null; wait "$second_pid" 2>/dev/null || true; second_pid=""
    stop_server
    stop_postgres
else
    echo "run.sh: PostgreSQL 15 or wrk not installed: todo-server on PostgreSQL skipped (apt-get install postgresql wrk)" >&2
fi
}
# Live sync (Benchmarks/live_bench.py): from a change in one replica, or through the
# API, to another replica's open `todo ui`; idle views; 1,000 open event streams; 50
# listeners of 100 changes a second. On SQLite, and on PostgreSQL where installed.
live_benchmarks() {
    local options=(--todo "$todo" --todo-server "$server" --work "$work/live" --figures "$results/figures.jsonl")
    if [ "$quick" = 1 ]; then options+=(--changes 5 --idle 2 --streams 50 --listeners 5 --rate 20 --seconds 1); fi
    if [ -x "$pg_bin/initdb" ]; then
        start_postgres
        psql_bench "CREATE DATABASE live" postgres
        options+=(--postgres "postgres://postgres@127.0.0.1:$pgport/live?sslmode=disable")
    fi
    echo "== live sync" >&2
    python3 "$root/Benchmarks/live_bench.py" "${options[@]}" >&2
    if [ -x "$pg_bin/initdb" ]; then stop_postgres; fi
}
if [ "$live_only" = 1 ]; then
    live_benchmarks
    print_report
    exit 0
fi
# todo-server's CalDAV beside Radicale holding the same VTODOs, in turns.
caldav_benchmarks() {
    local venv=$root/.build/venv/bin
    if ! "$venv/python" -c 'import radicale, vdirsyncer' 2>/dev/null; then
        echo "run.sh: Radicale and vdirsyncer not in .build/venv: CalDAV skipped (bash .ci/run installs them)" >&2
        return
    fi
    local csize=10000 large=100000 rounds=5
    if [ "$quick" = 1 ]; then csize=200; large=500; rounds=1; fi
    echo "== CalDAV: todo-server beside Radicale, $csize VTODOs" >&2
    python3 "$root/Benchmarks/caldav_bench.py" --todo-server "$server" --venv "$venv" --work "$work/caldav" \
        --size "$csize" --large "$large" --rounds "$rounds" --figures "$results/figures.jsonl" >&2
    # todo sync with a list on Radicale beside vdirsyncer and curl (issue 27): first sync,
    # a sync with nothing to do, pushing adds (Benchmarks/caldav_client_bench.py).
    local lsize=10000 adds=1000 lrounds=5
    if [ "$quick" = 1 ]; then lsize=300; adds=20; lrounds=1; fi
    echo "== CalDAV: todo sync beside vdirsyncer and curl, $lsize VTODOs on Radicale" >&2
    python3 "$root/Benchmarks/caldav_client_bench.py" --todo "$todo" --venv "$venv" --work "$work/caldav-client" \
        --size "$lsize" --adds "$adds" --rounds "$lrounds" --figures "$results/figures.jsonl" >&2
}
if [ "$caldav_only" = 1 ]; then
    caldav_benchmarks
    print_report
    exit 0
fi
if [ "$pg_only" = 1 ]; then
    postgres_benchmarks
    print_report
    exit 0
fi

# What starting a process that does nothing costs here: no command takes less.
[ "$ui_only" = 1 ] || bench process-start 0 true -- /bin/true
for size in "${size_list[@]}"; do
    [ "$sync_only" = 1 ] && break
    echo "== $size todos" >&2
    data=$work/$size
    mkdir -p "$data"
    # The data set's name changes with what generate.py puts in it: -projects
    # has due dates, priorities, tags, projects, scheduled and wait dates (data
    # sets without them stay unused). Subtasks and blockers (generate.py
    # --links) are measured apart: BENCHMARKS.md, "Subtasks and blockers".
    pristine=$data/pristine-projects.sqlite
    if [ ! -f "$pristine" ]; then
        python3 "$root/Benchmarks/generate.py" --size "$size" --format todo-json --out "$data/todos.json"
        "$todo" import "$data/todos.json" --database "$pristine" >/dev/null
        sqlite3 "$pristine" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
        rm -f "$data/todos.json"
    fi
    # Bring a data set made by an older build up to the current schema (todo
    # migrates on open), so todo and the sqlite3 floor run on the same tables.
    "$todo" list --limit 1 --database "$pristine" >/dev/null
    sqlite3 "$pristine" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
    cp "$pristine" "$data/todo.sqlite"; rm -f "$data/todo.sqlite-wal" "$data/todo.sqlite-shm"
    cp "$pristine" "$data/floor.sqlite"; rm -f "$data/floor.sqlite-wal" "$data/floor.sqlite-shm"
    export TODO_DATABASE=$data/todo.sqlite NO_COLOR=1
    floor=$data/floor.sqlite
    [ "$ui_only" = 1 ] && continue

    # An import of the whole data set into an empty database, and `todo undo` of it:
    # undo costs about what the change cost (up to --peer-max todos: seconds a run).
    if [ "$size" -le "$peer_max" ]; then
        "$todo" export --database "$pristine" > "$data/export.json"
        imported=$data/imported.sqlite
        rm -f "$imported"*
        "$todo" import "$data/export.json" --database "$imported" >/dev/null
        sqlite3 "$imported" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
        bench import "$size" todo --prepare "rm -f $data/import.sqlite $data/import.sqlite-wal $data/import.sqlite-shm" -- \
            "$todo" import "$data/export.json" --database "$data/import.sqlite"
        bench undo-import "$size" todo --prepare "cp $imported $data/undo.sqlite" -- "$todo" undo --database "$data/undo.sqlite"
        bench export "$size" todo -- "$todo" export --database "$imported"
        rm -f "$data/export.json" "$data"/import.sqlite* "$data"/undo.sqlite* "$imported"*
    fi

    bench add "$size" todo -- "$todo" add "benchmark todo"
    bench add "$size" sqlite3 -- sqlite3 -cmd "PRAGMA synchronous=NORMAL" "$floor" \
        "INSERT INTO todo(id, text, searchText, isDone, createdAt, updatedAt) VALUES ($floor_id_sql, 'benchmark todo', 'benchmark todo', 0, $now_ms, $now_ms)"

    target=$(sqlite3 "$data/todo.sqlite" "SELECT id FROM todo WHERE isDone = 0 ORDER BY createdAt LIMIT 1")
    short=$(sqlite3 "$data/todo.sqlite" "SELECT substr(id, 1, idPrefixLength) FROM todo WHERE id = '$target'")
    bench done "$size" todo --prepare "$todo undone $target" -- "$todo" done "$short"
    bench done "$size" sqlite3 --prepare "sqlite3 $floor \"UPDATE todo SET isDone = 0, completedAt = NULL WHERE id = '$target'\"" -- \
        sqlite3 -cmd "PRAGMA synchronous=NORMAL" "$floor" "UPDATE todo SET isDone = 1, completedAt = $now_ms, updatedAt = $now_ms WHERE id = '$target'"

    # todo prints each todo's due date, priority and tags: so does the floor.
    bench list "$size" todo -- "$todo" list
    bench list "$size" sqlite3 -- sqlite3 "$floor" \
        "SELECT substr(id, 1, idPrefixLength), text, due, priority, tags FROM todo WHERE isDone = 0 ORDER BY createdAt DESC, seq DESC"
    for query in qu quokk; do
        bench "query-${#query}" "$size" todo -- "$todo" list --query "$query"
        bench "query-${#query}" "$size" sqlite3 -- sqlite3 "$floor" \
            "SELECT substr(id, 1, idPrefixLength), text FROM todo WHERE isDone = 0 AND text LIKE '%$query%' ORDER BY createdAt DESC, seq DESC"
    done
    # Two characters found in about 46% of the todos (a word starting with b).
    bench query-2-wide "$size" todo -- "$todo" list --query " b"
    bench query-2-wide "$size" sqlite3 -- sqlite3 "$floor" \
        "SELECT substr(id, 1, idPrefixLength), text FROM todo WHERE isDone = 0 AND text LIKE '% b%' ORDER BY createdAt DESC, seq DESC"

    # The planning filters, against the sqlite3 shell running the SQL todo runs
    # (AppDatabase.listSQL) on the same indexes and printing the same columns.
    # Without $TZ both reckon in UTC: today is the UTC date, which sorts before now.
    today=$(date -u +%F) now_iso=$(date -u +%Y-%m-%dT%H:%M:%S.000Z)
    planned="substr(todo.id, 1, todo.idPrefixLength), todo.text, todo.due, todo.priority, todo.tags"
    bench due-overdue "$size" todo -- "$todo" list --due overdue
    bench due-overdue "$size" sqlite3 -- sqlite3 "$floor" \
        "SELECT $planned FROM todo WHERE todo.isDone = 0 AND todo.due < '$now_iso' AND CASE WHEN length(todo.due) = 10 THEN todo.due < '$today' ELSE todo.due < '$now_iso' END ORDER BY todo.createdAt DESC, todo.seq DESC"
    bench tag "$size" todo -- "$todo" list --tag home
    bench tag "$size" sqlite3 -- sqlite3 "$floor" \
        "SELECT $planned FROM todoTag CROSS JOIN todo ON todo.seq = todoTag.seq WHERE todoTag.tag = 'home' AND todoTag.isDone = 0 ORDER BY todoTag.createdAt DESC, todoTag.seq DESC"
    bench not-tag "$size" todo -- "$todo" list --not-tag home
    bench not-tag "$size" sqlite3 -- sqlite3 "$floor" \
        "SELECT $planned FROM todo WHERE todo.isDone = 0 AND NOT EXISTS (SELECT 1 FROM todoTag AS other WHERE other.seq = todo.seq AND other.tag = 'home') ORDER BY todo.createdAt DESC, todo.seq DESC"
    bench sort-due "$size" todo -- "$todo" list --sort due
    bench sort-due "$size" sqlite3 -- sqlite3 "$floor" \
        "SELECT $planned FROM todo WHERE todo.isDone = 0 AND todo.due IS NOT NULL ORDER BY todo.due, todo.createdAt DESC, todo.seq DESC; SELECT $planned FROM todo WHERE todo.isDone = 0 AND todo.due IS NULL ORDER BY todo.createdAt DESC, todo.seq DESC"

    # Projects and todo next (issue 29), against the sqlite3 shell running the SQL
    # todo runs on the same indexes: the project's range of its index, and the
    # waiting todos left out as every list leaves them out.
    current="((todo.wait IS NULL AND todo.until IS NULL) OR ((todo.wait IS NULL OR CASE WHEN length(todo.wait) = 10 THEN todo.wait <= '$today' ELSE todo.wait <= '$now_iso' END) AND (todo.until IS NULL OR todo.isDone OR CASE WHEN length(todo.until) = 10 THEN todo.until >= '$today' ELSE todo.until >= '$now_iso' END)))"
    bench project "$size" todo -- "$todo" list --project home
    bench project "$size" sqlite3 -- sqlite3 "$floor" \
        "SELECT $planned, todo.project FROM todo WHERE todo.isDone = 0 AND todo.project >= 'home' AND todo.project < 'home/' AND (todo.project = 'home' OR substr(todo.project, 1, 5) = 'home.') AND $current ORDER BY todo.createdAt DESC, todo.seq DESC"
    # todo next: Taskwarrior's urgency over every pending todo, the first 20
    # (AppDatabase.urgencySQL with the default weights, in millionths).
    now_s=$(date -u +%s)
    overdue="($now_s - (CAST(strftime('%s', todo.due) AS INTEGER) - CASE WHEN length(todo.due) = 10 THEN 0 ELSE 0 END))"
    urgency="(CASE WHEN instr(todo.tags, '\"next\"') > 0 THEN 15000000 ELSE 0 END
        + CASE WHEN todo.due IS NULL THEN 0 WHEN $overdue >= 604800 THEN 12000000
            WHEN $overdue >= -1209600 THEN 12000000 * (($overdue + 1209600) * 4 + 1814400) / 9072000 ELSE 12000000 / 5 END
        + CASE todo.priority WHEN 1 THEN 6000000 WHEN 2 THEN 3900000 WHEN 3 THEN 1800000 ELSE 0 END
        + CASE WHEN todo.scheduled IS NOT NULL AND CASE WHEN length(todo.scheduled) = 10 THEN todo.scheduled <= '$today' ELSE todo.scheduled <= '$now_iso' END THEN 5000000 ELSE 0 END
        + 2000000 * min(max($now_ms - todo.createdAt, 0) / 1000, 31536000) / 31536000
        + CASE WHEN todo.note IS NULL THEN 0 ELSE 1000000 * 8 / 10 END
        + CASE WHEN todo.tags IS NULL THEN 0 ELSE 1000000 * (CASE json_array_length(todo.tags) WHEN 0 THEN 0 WHEN 1 THEN 8 WHEN 2 THEN 9 ELSE 10 END) / 10 END
        + CASE WHEN todo.project IS NULL THEN 0 ELSE 1000000 END
        + CASE WHEN todo.id IN (SELECT blocker.value FROM todo AS other, json_each(other.blockedBy) AS blocker WHERE other.blockedBy IS NOT NULL AND other.isDone = 0) THEN 8000000 ELSE 0 END)"
    # Blocked todos wait, as waiting ones do.
    unblocked="(todo.blockedBy IS NULL OR NOT EXISTS (SELECT 1 FROM json_each(todo.blockedBy) AS blocker CROSS JOIN todo AS other ON other.id = blocker.value WHERE other.isDone = 0))"
    # One line: hyperfine reads the command as shell words, and a newline would need $'…'.
    urgency=$(printf '%s' "$urgency" | tr '\n' ' ' | tr -s ' ')
    bench next "$size" todo -- "$todo" next
    bench next "$size" sqlite3 -- sqlite3 "$floor" \
        "SELECT $planned, todo.project, $urgency AS urgency FROM todo WHERE todo.isDone = 0 AND $current AND $unblocked ORDER BY urgency DESC, todo.createdAt DESC, todo.seq DESC LIMIT 20"

    # Start-up of commands the quick path does not read (issue 25): ArgumentParser
    # parses the named subcommand alone; the floor runs the same SQL with a LIMIT.
    bench tag-limit-5 "$size" todo -- "$todo" list --tag home --limit 5
    bench tag-limit-5 "$size" sqlite3 -- sqlite3 "$floor" \
        "SELECT $planned FROM todoTag CROSS JOIN todo ON todo.seq = todoTag.seq WHERE todoTag.tag = 'home' AND todoTag.isDone = 0 ORDER BY todoTag.createdAt DESC, todoTag.seq DESC LIMIT 5"
    bench show "$size" todo -- "$todo" show "$short"
    bench show "$size" sqlite3 -- sqlite3 "$floor" "SELECT * FROM todo WHERE id >= '$short' AND id < '${short}g' LIMIT 2"

    # add and done with every field, to set beside add and done above.
    every_field=(--due fri --priority high --tag home --tag bills --note "IBAN in mail" --repeat weekly)
    bench add-fields "$size" todo -- "$todo" add "benchmark todo" "${every_field[@]}"
    planned_id=$("$todo" add "benchmark planned todo" "${every_field[@]}" --json | grep -o '"id":"[^"]*"' | cut -d'"' -f4)
    bench done-fields "$size" todo --prepare "$todo undone $planned_id" -- "$todo" done "${planned_id:0:8}"
    if [ "$size" = "$largest" ]; then
        peak=$( { /usr/bin/time -f %M "$todo" list >/dev/null; } 2>&1 | tail -1)
        record list-peak-memory "$size" todo "$peak" KB

        # todo mcp (Benchmarks/mcp_bench.py): a list_todos round trip on one long-lived
        # process, beside todo list running the same SQL; and start to initialize answered.
        bench query-2-limit-50 "$size" todo -- "$todo" list --query qu --limit 50 --json
        mcp=$(python3 "$root/Benchmarks/mcp_bench.py" --todo "$todo" --database "$data/todo.sqlite" \
            --query qu --limit 50 $([ "$quick" = 1 ] && echo "--rounds 5 --starts 3"))
        record mcp-list-query-2-limit-50 "$size" "todo mcp" "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["list_ms"])' <<< "$mcp")" ms
        record mcp-initialize "$size" "todo mcp" "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["initialize_ms"])' <<< "$mcp")" ms
    fi

    if [ "$size" -le "$peer_max" ] && command -v task >/dev/null; then
        tw=$data/taskwarrior
        rm -rf "$tw"; python3 "$root/Benchmarks/generate.py" --size "$size" --format taskwarrior --out "$tw"
        printf 'data.location=%s\nconfirmation=off\nverbose=nothing\ngc=off\nhooks=off\nsearch.case.sensitive=no\n' "$tw" > "$tw/taskrc"
        export TASKRC=$tw/taskrc
        tw_target=$(grep -m1 -o 'uuid:"[^"]*"' "$tw/pending.data" | cut -d'"' -f2)
        bench add "$size" taskwarrior -- task add "benchmark todo"
        bench done "$size" taskwarrior --prepare "task $tw_target modify status:pending" -- task "$tw_target" done
        bench list "$size" taskwarrior -- task list
        bench query-2 "$size" taskwarrior -- task /qu/ list
        bench query-5 "$size" taskwarrior -- task /quokk/ list
        unset TASKRC
    fi
    if [ "$size" -le "$peer_max" ] && command -v todo-txt >/dev/null; then
        tt=$data/todotxt
        rm -rf "$tt"; mkdir -p "$tt"
        python3 "$root/Benchmarks/generate.py" --size "$size" --format todotxt --out "$tt/todo.txt"
        printf 'export TODO_DIR=%s\nexport TODO_FILE=%s/todo.txt\nexport DONE_FILE=%s/done.txt\nexport REPORT_FILE=%s/report.txt\nexport TODOTXT_AUTO_ARCHIVE=0\n' "$tt" "$tt" "$tt" "$tt" > "$tt/config"
        line=$(grep -n -m1 -v '^x ' "$tt/todo.txt" | cut -d: -f1)
        bench add "$size" todo.txt -- todo-txt -d "$tt/config" add "benchmark todo"
        bench done "$size" todo.txt --prepare "sed -i '${line}s/^x [0-9-]* //' $tt/todo.txt" -- todo-txt -d "$tt/config" -a do "$line"
        bench list "$size" todo.txt -- todo-txt -d "$tt/config" ls
        bench query-2 "$size" todo.txt -- todo-txt -d "$tt/config" ls qu
        bench query-5 "$size" todo.txt -- todo-txt -d "$tt/config" ls quokk
    fi
done

# todo ui through a pseudo-terminal: the first frame at the smallest and the largest
# size in turns; query keystrokes, moving and idle CPU at the largest.
ui_dbs=()
[ "$sync_only" = 1 ] || for size in $(printf '%s\n' "${size_list[0]}" "$largest" | sort -un); do
    cp "$work/$size/pristine-projects.sqlite" "$work/$size/ui.sqlite"; rm -f "$work/$size/ui.sqlite-wal" "$work/$size/ui.sqlite-shm"
    ui_dbs+=(--db "$size=$work/$size/ui.sqlite")
done
[ "$sync_only" = 1 ] || echo "== todo ui" >&2
[ "$sync_only" = 1 ] || python3 "$root/Benchmarks/ui_bench.py" --todo "$todo" "${ui_dbs[@]}" --figures "$results/figures.jsonl" \
    $([ "$quick" = 1 ] && echo --quick) >&2
if [ "$ui_only" = 1 ]; then
    print_report
    exit 0
fi

# add and done at the smallest and the largest size again, in turns: the target is
# that the largest costs no more than the smallest, and the minutes between their
# runs above would let the machine's drift decide it.
if [ "${#size_list[@]}" -gt 1 ] && [ "$sync_only" = 0 ]; then
    turns_add=() turns_done=()
    for size in "${size_list[0]}" "$largest"; do
        db=$work/$size/todo.sqlite
        target=$(sqlite3 "$db" "SELECT id FROM todo WHERE isDone = 0 ORDER BY createdAt LIMIT 1")
        turns_add+=("$size" todo "" "$(printf '%q add %q --database %q' "$todo" "benchmark todo" "$db")")
        turns_done+=("$size" todo "$(printf '%q undone %q --database %q' "$todo" "$target" "$db")"
                     "$(printf '%q done %q --database %q' "$todo" "$target" "$db")")
    done
    bench_turns add-in-turns "${turns_add[@]}"
    bench_turns done-in-turns "${turns_done[@]}"
fi

# ---- todo-server and todo sync on loopback ----------------------------------------
# sync_benchmarks KIND SIZE URL DIR: first sync, no-op sync, and their floors.
sync_benchmarks() {
    local kind=$1 size=$2 url=$3 dir=$4
    local replica=$dir/replica.sqlite
    # The floor of a first sync: fetch the list with curl, load it with sqlite3.
    cat > "$dir/floor-first-sync.sh" <<FLOOR
curl -sf -o "$dir/list.json" "$url/todos"
rm -f "$dir/floor.sqlite"
sqlite3 "$dir/floor.sqlite" "CREATE TABLE todo(id TEXT PRIMARY KEY, title TEXT, completed INTEGER); INSERT INTO todo SELECT json_extract(value, '\$.id'), json_extract(value, '\$.title'), json_extract(value, '\$.completed') FROM json_each(readfile('$dir/list.json'))"
FLOOR
    bench_turns "first-sync-$kind" \
        "$size" todo "$(printf 'rm -f %q %q %q' "$replica" "$replica-wal" "$replica-shm")" \
            "$(printf '%q sync --server %q --database %q' "$todo" "$url" "$replica")" \
        "$size" sqlite3 "" "$(printf 'bash %q' "$dir/floor-first-sync.sh")"
    "$todo" sync --server "$url" --database "$replica" >/dev/null
    bench "noop-sync-$kind" "$size" todo -- "$todo" sync --database "$replica"
    bench "noop-sync-$kind" "$size" sqlite3 -- curl -sf -o /dev/null "$url/todos"
}

server_sizes=$([ "$quick" = 1 ] && echo 1000 || echo 1000,100000)
IFS=, read -r -a server_size_list <<< "$server_sizes"
for ssize in "${server_size_list[@]}"; do
    echo "== todo-server with $ssize todos" >&2
    start_todo_server "$ssize"
    url=http://127.0.0.1:$port
    sdir=$work/server-$ssize
    bench get-all "$ssize" todo -- curl -sf -o /dev/null "$url/todos"
    sync_benchmarks todo-server "$ssize" "$url" "$sdir"
    if [ "$ssize" = "${server_size_list[-1]}" ]; then
        if command -v wrk >/dev/null; then
            item=$(sqlite3 "$sdir/server.sqlite" "SELECT id FROM item WHERE deleted = 0 LIMIT 1")
            throughput() { # NAME URL [LUA]
                local lua=() rps
                [ -n "${3:-}" ] && lua=(-s "$3")
                rps=$(wrk -t2 -c32 -d"$wrk_time" "${lua[@]}" "$2" | awk '/Requests\/sec/ {print $2}')
                record "$1" "$ssize" todo-server "$rps" req/s
            }
            printf 'wrk.method = "PATCH"\nwrk.body = "{\\"completed\\": true}"\nwrk.headers["Content-Type"] = "application/json"\n' > "$sdir/patch.lua"
            throughput constant "$url/health"
            throughput get-one "$url/todos/$item"
            throughput patch-one "$url/todos/$item" "$sdir/patch.lua"
            # The same with accounts: each request's token is looked up, and its
            # address's failures checked, in the database. The todos move to
            # the account, and the server restarts to see it has accounts.
            account_server "$ssize"
            printf 'wrk.headers["Authorization"] = "Bearer %s"\n' "$token" > "$sdir/auth.lua"
            cat "$sdir/patch.lua" "$sdir/auth.lua" > "$sdir/patch-auth.lua"
            throughput get-one-account "$url/todos/$item" "$sdir/auth.lua"
            throughput patch-one-account "$url/todos/$item" "$sdir/patch-auth.lua"
        else
            echo "run.sh: wrk not installed: server throughput skipped (apt-get install wrk)" >&2
        fi
    fi
    stop_server
done

# The next occurrence of a repeat, as todo done computes it for each repeating todo:
# the rules --repeat's words make and RFC 5545's examples (Benchmarks/RepeatBench).
# Target: 10 µs a call at most.
if [ "$sync_only" = 1 ] || [ "$ui_only" = 1 ]; then :; else
    echo "== the next occurrence of a repeat" >&2
    (cd "$root" && swift build ${release[@]+"${release[@]}"} --product repeat-bench >&2)
    calls=$([ "$quick" = 1 ] && echo 20000 || echo 1000000)
    while IFS=$'\t' read -r group rules mean _; do
        record "next-occurrence-$group" "${rules%% *}" todo "${mean%% *}" "ns a call"
    done < <("$bin/repeat-bench" --calls "$calls")
fi

[ "$sync_only" = 1 ] || postgres_benchmarks
[ "$sync_only" = 1 ] || caldav_benchmarks
[ "$sync_only" = 1 ] || live_benchmarks

# A plain json-server-style server: no change feed, so every sync reads the full list.
jsize=$([ "$quick" = 1 ] && echo 1000 || echo 10000)
echo "== json-server-style server with $jsize todos" >&2
jdir=$work/json-server-$jsize
rm -rf "$jdir"; mkdir -p "$jdir"
python3 "$root/Benchmarks/generate.py" --size "$jsize" --format server-json --out "$jdir/todos.json"
port=$(free_port)
python3 "$root/Benchmarks/json_server.py" --port "$port" --data "$jdir/todos.json" &
server_pid=$!
wait_for "http://127.0.0.1:$port/todos/none"
sync_benchmarks json-server "$jsize" "http://127.0.0.1:$port" "$jdir"
stop_server

# ---- Pushing, and lists read a page at a time ------------------------------------
# Each push starts from a fresh server and a fresh replica holding the same new todos,
# so a run pushes exactly that many and pulls nothing; pulling as many from todo-server
# is timed in turns beside it.
moves=$([ "$quick" = 1 ] && echo 200 || echo 10000)
echo "== pushing and pulling $moves todos" >&2
mdir=$work/moves-$moves
rm -rf "$mdir"; mkdir -p "$mdir"
python3 "$root/Benchmarks/generate.py" --size "$moves" --seed 77 --format todo-json --out "$mdir/adds.json"
python3 "$root/Benchmarks/generate.py" --size "$moves" --seed 78 --format server-json --out "$mdir/server.json"
start_todo_server "$moves"
pull_url=http://127.0.0.1:$port
pull_pid=$server_pid
push_port=$(free_port)
# fresh_push_server KIND: restarts the push server (todo-server or json-server) empty, in the background.
cat > "$mdir/fresh-push-server.sh" <<FRESH
kind=\$1
[ -f "$mdir/push.pid" ] && kill "\$(cat "$mdir/push.pid")" 2>/dev/null || true
for _ in \$(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$push_port/" || break; sleep 0.05; done
rm -f "$mdir"/push-server.sqlite*
if [ "\$kind" = todo-server ]; then
    nohup "$server" --port $push_port --database "$mdir/push-server.sqlite" >/dev/null 2>&1 &
else
    nohup python3 "$root/Benchmarks/json_server.py" --port $push_port >/dev/null 2>&1 &
fi
echo \$! > "$mdir/push.pid"
for _ in \$(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$push_port/todos" && break; sleep 0.05; done
rm -f "$mdir"/push.sqlite*
"$todo" import "$mdir/adds.json" --database "$mdir/push.sqlite" >/dev/null
FRESH
bench_turns "push-vs-pull" \
    "$moves" push "bash $mdir/fresh-push-server.sh todo-server" \
        "$(printf '%q sync --server %q --database %q' "$todo" "http://127.0.0.1:$push_port" "$mdir/push.sqlite")" \
    "$moves" pull "$(printf 'rm -f %q %q %q' "$mdir/pull.sqlite" "$mdir/pull.sqlite-wal" "$mdir/pull.sqlite-shm")" \
        "$(printf '%q sync --server %q --database %q' "$todo" "$pull_url" "$mdir/pull.sqlite")"
kill "$pull_pid" 2>/dev/null || true; wait "$pull_pid" 2>/dev/null || true; server_pid=""
# The floor of pushing to a json-server-style server: as many POSTs from one curl,
# 8 at a time on kept-alive connections.
python3 - "$mdir/adds.json" "http://127.0.0.1:$push_port/todos" > "$mdir/posts.cfg" <<'POSTS'
import json, sys
entries = []
for todo in json.load(open(sys.argv[1])):
    body = json.dumps({"title": todo["text"], "completed": todo["done"], "clientId": todo["id"]})
    entries.append(f'url = "{sys.argv[2]}"\nrequest = "POST"\nheader = "Content-Type: application/json"\n'
                   f'data = {json.dumps(body)}\noutput = "/dev/null"\nsilent\n')
print("next\n".join(entries))
POSTS
bench_turns "push-json-server" \
    "$moves" todo "bash $mdir/fresh-push-server.sh json-server" \
        "$(printf '%q sync --server %q --database %q' "$todo" "http://127.0.0.1:$push_port" "$mdir/push.sqlite")" \
    "$moves" curl "bash $mdir/fresh-push-server.sh json-server" \
        "$(printf 'curl -s --parallel --parallel-max 8 -K %q' "$mdir/posts.cfg")"
[ -f "$mdir/push.pid" ] && kill "$(cat "$mdir/push.pid")" 2>/dev/null || true
# A first sync from a server that pages its list 10 at a time and says so (Link
# headers), against one curl fetching every page on a kept-alive connection.
paged_port=$(free_port)
python3 "$root/Benchmarks/json_server.py" --port "$paged_port" --data "$mdir/server.json" --paging link --page-size 10 &
server_pid=$!
wait_for "http://127.0.0.1:$paged_port/todos/none"
pages=$(( (moves + 9) / 10 ))
for page in $(seq "$pages"); do printf 'url = "http://127.0.0.1:%s/todos?_page=%s&_limit=10"\noutput = "/dev/null"\n' "$paged_port" "$page"; done > "$mdir/pages.cfg"
bench_turns "first-sync-paged" \
    "$moves" todo "$(printf 'rm -f %q %q %q' "$mdir/paged.sqlite" "$mdir/paged.sqlite-wal" "$mdir/paged.sqlite-shm")" \
        "$(printf '%q sync --server %q --database %q' "$todo" "http://127.0.0.1:$paged_port" "$mdir/paged.sqlite")" \
    "$moves" curl "" "$(printf 'curl -s -K %q' "$mdir/pages.cfg")"
stop_server

print_report
