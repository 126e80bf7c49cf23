#!/usr/bin/env bash
# Two todo-server binaries on the many-accounts mixed workload, in turns, so
# both see the same machine: the A/B run.sh cannot make (it measures one build).
#
#   Benchmarks/mixed_ab.sh OLD-todo-server NEW-todo-server [TURNS]   (default 3)
#
# The workload is run.sh's (Benchmarks/mixed.lua): 1,000 accounts of 100 todos,
# `wrk -t2 -c64 -d10s`, each request from a random account. Each turn runs OLD
# then NEW on SQLite, then OLD then NEW on PostgreSQL (a private cluster, when
# PostgreSQL 15 is installed), each on a database of its own loaded from the
# same SQL. Prints each run's req/s and p99, then the medians and NEW/OLD.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=$1 new=$2 turns=${3:-3}
work=$(mktemp -d /tmp/todo-mixed-ab.XXXXXX)
chmod 755 "$work" # PostgreSQL runs as its own user: it must reach its folder
pids=()
pg_bin=/usr/lib/postgresql/15/bin
as_pg=()
if [ "$(id -u)" = 0 ]; then as_pg=(runuser -u postgres --); fi
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    if [ -d "$work/pg/data" ]; then (cd /tmp && "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg/data" -m immediate stop >/dev/null 2>&1) || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# Any answer will do: with accounts, /health asks for a token too.
wait_for() { for _ in $(seq 400); do curl -s -o /dev/null "$1" && return 0; sleep 0.05; done; echo "no answer from $1" >&2; return 1; }

python3 "$root/Benchmarks/accounts.py" --accounts 1000 --todos 100 --dialect sqlite --sql "$work/many-sqlite.sql" --tokens "$work/tokens.txt"
python3 "$root/Benchmarks/accounts.py" --accounts 1000 --todos 100 --dialect postgres --sql "$work/many-pg.sql" --tokens "$work/tokens.txt"
databases=()
for name in old new; do
    binary=$([ "$name" = old ] && echo "$old" || echo "$new")
    "$binary" user list --database "$work/$name.sqlite" >/dev/null 2>&1 || true
    sqlite3 "$work/$name.sqlite" < "$work/many-sqlite.sql"
    databases+=("$work/$name.sqlite")
done
if [ -x "$pg_bin/initdb" ]; then
    mkdir -p "$work/pg"; [ "$(id -u)" = 0 ] && chown postgres "$work/pg"
    pgport=$(free_port)
    (cd /tmp && "${as_pg[@]}" "$pg_bin/initdb" -D "$work/pg/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null)
    (cd /tmp && "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w start \
        -o "-c listen_addresses=127.0.0.1 -p $pgport -k $work/pg -c max_connections=200" >/dev/null)
    for name in old new; do
        binary=$([ "$name" = old ] && echo "$old" || echo "$new")
        "$pg_bin/psql" -h 127.0.0.1 -p "$pgport" -U postgres -d postgres -X -q -c "CREATE DATABASE $name"
        url="postgres://postgres@127.0.0.1:$pgport/$name?sslmode=disable"
        "$binary" user list --database "$url" >/dev/null 2>&1 || true
        "$pg_bin/psql" -h 127.0.0.1 -p "$pgport" -U postgres -d "$name" -X -q -v ON_ERROR_STOP=1 -f "$work/many-pg.sql" >/dev/null
        "$pg_bin/psql" -h 127.0.0.1 -p "$pgport" -U postgres -d "$name" -X -q -c "VACUUM ANALYZE"
        databases+=("$url")
    done
fi

# run BINARY DATABASE LABEL: "RPS P99" of one wrk run against a fresh server process.
run() {
    local port pid
    port=$(free_port)
    "$1" --port "$port" --database "$2" 2>/dev/null &
    pid=$!; pids+=("$pid")
    wait_for "http://127.0.0.1:$port/health"
    wrk -t2 -c64 -d10s -s "$root/Benchmarks/mixed.lua" "http://127.0.0.1:$port" -- "$work/tokens.txt" 100 "$3" \
        | awk '/^mixed:/ {print $2, $8}'
    kill "$pid"; wait "$pid" 2>/dev/null || true
}
declare -A rps p99
for turn in $(seq "$turns"); do
    for index in "${!databases[@]}"; do
        backend=$([ "$index" -lt 2 ] && echo sqlite || echo postgres)
        name=$([ $((index % 2)) = 0 ] && echo old || echo new)
        binary=$([ "$name" = old ] && echo "$old" || echo "$new")
        read -r r p <<< "$(run "$binary" "${databases[$index]}" "$name$turn$backend")"
        echo "turn $turn $backend $name: $r req/s, p99 $p ms"
        rps[$backend-$name]+="$r "; p99[$backend-$name]+="$p "
    done
done
median() { python3 -c 'import statistics, sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }
for backend in sqlite postgres; do
    [ -n "${rps[$backend-old]:-}" ] || continue
    # shellcheck disable=SC2086
    ro=$(median ${rps[$backend-old]}); rn=$(median ${rps[$backend-new]}); po=$(median ${p99[$backend-old]}); pn=$(median ${p99[$backend-new]})
    printf '%s: old %s req/s p99 %s ms; new %s req/s p99 %s ms; new/old req/s %.2f, p99 %.2f\n' \
        "$backend" "$ro" "$po" "$rn" "$pn" "$(echo "$rn / $ro" | bc -l)" "$(echo "$pn / $po" | bc -l)"
done
