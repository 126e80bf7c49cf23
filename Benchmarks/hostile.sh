#!/usr/bin/env bash
# todo-server under hostile input: the CPU time and memory the server spends
# on each of issue 12's nasty requests, measured on the server process.
#
#   Benchmarks/hostile.sh [PATH-TO-todo-server]   (default .build/release/todo-server)
#
# Starts the server on a free loopback port with a fresh database in a temporary
# folder, stores five todos of 1 MB each (the issue's setup for the sort that
# took 2 GB), then sends each request REPEAT times (default 10) with curl and
# reads the server's CPU time (user + system, all threads, from
# /proc/PID/task/*/schedstat, in nanoseconds) and RSS (/proc/PID/status) around
# the series. Prints one line per request: status, CPU ms per request, RSS
# growth over the series and peak RSS. Then issue 43's CalDAV requests on
# 10,000 todos (REPEAT_HEAVY times, default 3): a PROPFIND naming 10,000
# unknown properties, one asking for the most a request may (100 properties,
# 4 KB of names), a calendar-multiget of all 10,000 resources with their data,
# a calendar-query with the data. Ends with the largest growth of RSS, or of
# the peak, any one series caused, and its request. Stops the server at the end.
set -euo pipefail

binary=${1:-.build/release/todo-server}
repeat=${REPEAT:-10}
repeat_heavy=${REPEAT_HEAVY:-3}
largest=0
largest_label=none
work=$(mktemp -d /tmp/todo-hostile.XXXXXX)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

"$binary" --port 0 --database "$work/db.sqlite" --durability normal >"$work/log" 2>&1 &
pid=$!
for _ in $(seq 100); do
    port=$(grep -o 'listening on 127.0.0.1:[0-9]*' "$work/log" | grep -o '[0-9]*$' || true)
    [ -n "$port" ] && break
    sleep 0.1
done
base="http://127.0.0.1:$port"

cpu_ns() { cat /proc/"$pid"/task/*/schedstat | awk '{sum += $1} END {printf "%.0f\n", sum}'; }
rss_kb() { awk '/^VmRSS/ {print $2}' /proc/"$pid"/status; }
hwm_kb() { awk '/^VmHWM/ {print $2}' /proc/"$pid"/status; }

# Bodies, written once.
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
def write(name, text):
    open(f"{work}/{name}", "w").write(text)
d = "[" * 510 + "]" * 510
write("deep16k.json", '{"x":[' + ",".join([d] * 16) + "]}")
write("deep1m.json", '{"x":[' + ",".join([d] * ((1 << 20) // 1022 - 1)) + "]}")
ok = "[" * 62 + "]" * 62
write("nested1m.json", '{"x":[' + ",".join([ok] * ((1 << 20) // 125 - 1)) + "]}")
write("title1m.json", '{"title":"' + "x" * ((1 << 20) - 20) + '"}')
write("keys1m.json", "{" + ",".join(f'"k{i}":{i}' for i in range(70000)) + "}")
write("nkeys1m.json", '{"o":{' + ",".join(f'"k{i}":{i}' for i in range(70000)) + "}}")
write("keys1000.json", "{" + ",".join(f'"k{i}":"' + "z" * 1030 + '"' for i in range(1000)) + "}")
write("dup1m.json", "{" + ",".join('"k":1' for _ in range(170000)) + "}")
write("numbers1m.json", '{"n":[' + ",".join(["1e999"] * 170000) + "]}")
for i in range(5):
    write(f"big{i}.json", '{"id":"big%d","title":"%s"}' % (i, "y" * 1_000_000))
write("sort2000", "_sort=" + ",".join(f"f{i}" for i in range(1999)))
write("sort8", "_sort=" + ",".join(f"f{i}" for i in range(8)))
write("filter1000", "&".join(f"f{i}={i}" for i in range(1000)))
write("filter16", "&".join(f"f{i}={i}" for i in range(16)))
# The same under the 8 KiB request line, so the query's own limits answer.
write("sort1000short", "_sort=" + ",".join(f"{i:x}" for i in range(1000)))
write("filter1000short", "&".join(f"{i:x}=1" for i in range(1000)))
write("filter17", "&".join(f"f{i}={i}" for i in range(17)))
# Issue 43: 10,000 small todos (ids c0..c9999), and CalDAV requests on them.
for b in range(10):
    ops = ",".join('{"method":"POST","body":{"id":"c%d","title":"todo %d","tags":["home"]}}' % (b * 1000 + i, b * 1000 + i) for i in range(1000))
    write(f"batch{b}.json", '{"operations":[' + ops + "]}")
head = '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:x="urn:x-probe"><d:prop>'
write("propfind10k.xml", head + "".join(f"<x:p{i}/>" for i in range(10000)) + "</d:prop></d:propfind>")
write("propfindmax.xml", head + "".join("<x:" + "q" * 26 + f"{i:02d}/>" for i in range(100)) + "</d:prop></d:propfind>")
write("propfindetag.xml", head + "<d:getetag/></d:prop></d:propfind>")
cal = 'xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"'
write("multiget10k.xml", f'<?xml version="1.0"?><c:calendar-multiget {cal}><d:prop><d:getetag/><c:calendar-data/></d:prop>'
      + "".join(f"<d:href>/dav/todo/tasks/c{i}.ics</d:href>" for i in range(10000)) + "</c:calendar-multiget>")
write("query.xml", f'<?xml version="1.0"?><c:calendar-query {cal}><d:prop><d:getetag/><c:calendar-data/></d:prop>'
      '<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>')
PY

for i in 0 1 2 3 4; do
    curl -s -o /dev/null -H 'Content-Type: application/json' --data-binary @"$work/big$i.json" "$base/todos"
done

printf '%-44s %6s %10s %12s %10s\n' request status "CPU ms" "RSS growth" "peak RSS"
note_growth() { # label, growth in KB: keeps the largest
    if [ "$2" -gt "$largest" ]; then largest=$2; largest_label=$1; fi
}
measure() { # label, then curl arguments; $times (default $repeat) runs
    local label=$1; shift
    local status cpu0 cpu1 rss0 rss1 hwm0 hwm1 times=${times:-$repeat}
    hwm0=$(hwm_kb); rss0=$(rss_kb)
    status=$(curl -s -o /dev/null -w '%{http_code}' "$@" || echo err)
    cpu0=$(cpu_ns)
    for _ in $(seq "$times"); do curl -s -o /dev/null "$@" || true; done
    cpu1=$(cpu_ns); rss1=$(rss_kb); hwm1=$(hwm_kb)
    note_growth "$label" $((rss1 - rss0)); note_growth "$label (peak)" $((hwm1 - hwm0))
    printf '%-44s %6s %10.2f %9d KB %7d KB\n' "$label" "$status" \
        "$(echo "($cpu1 - $cpu0) / $times / 1000000" | bc -l)" $((rss1 - rss0)) "$hwm1"
}
measure_four() { # label, URL: four at once, as the issue's memory test did
    local label=$1 url=$2 cpu0 cpu1 rss0 rss1 hwm0
    cpu0=$(cpu_ns); rss0=$(rss_kb); hwm0=$(hwm_kb)
    for _ in $(seq "$repeat"); do
        local curls=()
        for _ in 1 2 3 4; do curl -s -o /dev/null "$url" & curls+=($!); done
        wait "${curls[@]}"
    done
    cpu1=$(cpu_ns); rss1=$(rss_kb)
    note_growth "$label (4 requests)" $((rss1 - rss0)); note_growth "$label (4 requests, peak)" $(($(hwm_kb) - hwm0))
    printf '%-44s %6s %10.2f %9d KB %7d KB\n' "$label" "4x" \
        "$(echo "($cpu1 - $cpu0) / $repeat / 4 / 1000000" | bc -l)" $((rss1 - rss0)) "$(hwm_kb)"
}
json=(-H 'Content-Type: application/json')
measure "GET /health (baseline)" "$base/health"
measure "GET /todos?_page=922337203685477582" "$base/todos?_page=922337203685477582"
measure "GET /todos (5 x 1 MB todos)" "$base/todos"
measure "GET /todos?_sort= 8 fields (5 x 1 MB)" "$base/todos?$(cat "$work/sort8")"
measure_four "GET /todos?_sort= 8 fields, 4 at once" "$base/todos?$(cat "$work/sort8")"
measure "GET /todos?_sort= 1,999 fields" "$base/todos?$(cat "$work/sort2000")"
measure "GET /todos?_sort= 1,000 short fields" "$base/todos?$(cat "$work/sort1000short")"
measure "GET /todos? 16 filters (5 x 1 MB)" "$base/todos?$(cat "$work/filter16")"
measure "GET /todos? 17 filters" "$base/todos?$(cat "$work/filter17")"
measure "GET /todos? 1,000 filters" "$base/todos?$(cat "$work/filter1000")"
measure "GET /todos? 1,000 short filters" "$base/todos?$(cat "$work/filter1000short")"
measure "GET /todos?q=zzz (5 x 1 MB)" "$base/todos?q=zzz"
measure "POST 16 KB of depth-510 arrays" "${json[@]}" --data-binary @"$work/deep16k.json" "$base/todos"
measure "POST 1 MiB of depth-510 arrays" "${json[@]}" --data-binary @"$work/deep1m.json" "$base/todos"
measure "POST 1 MiB with one name 170,000 times" "${json[@]}" --data-binary @"$work/dup1m.json" "$base/todos"
measure "POST 1 MiB of depth-62 arrays (stored)" "${json[@]}" --data-binary @"$work/nested1m.json" "$base/todos"
measure "POST 1 MiB, 70,000 fields" "${json[@]}" --data-binary @"$work/keys1m.json" "$base/todos"
measure "POST 1 MiB, 1,000 fields of 1 KB (stored)" "${json[@]}" --data-binary @"$work/keys1000.json" "$base/todos"
measure "POST 1 MiB, 70,000 fields one level down (stored)" "${json[@]}" --data-binary @"$work/nkeys1m.json" "$base/todos"
measure "POST 1 MiB of 1e999 (stored)" "${json[@]}" --data-binary @"$work/numbers1m.json" "$base/todos"
measure "POST 1 MiB title (stored)" "${json[@]}" --data-binary @"$work/title1m.json" "$base/todos"
measure "PATCH big0 with a 1 MiB title" "${json[@]}" -X PATCH --data-binary @"$work/title1m.json" "$base/todos/big0"

# Issue 43: CalDAV on 10,000 todos.
for b in 0 1 2 3 4 5 6 7 8 9; do
    curl -s -o /dev/null "${json[@]}" --data-binary @"$work/batch$b.json" "$base/todos/_batch"
done
xml=(-H 'Content-Type: application/xml')
tasks="$base/dav/todo/tasks/"
times=$repeat_heavy measure "PROPFIND Depth 1 getetag (10,000 todos)" -X PROPFIND -H 'Depth: 1' "${xml[@]}" --data-binary @"$work/propfindetag.xml" "$tasks"
times=$repeat_heavy measure "PROPFIND 10,000 unknown props (99 KB)" -X PROPFIND -H 'Depth: 1' "${xml[@]}" --data-binary @"$work/propfind10k.xml" "$tasks"
times=$repeat_heavy measure "PROPFIND 100 props, 4 KB of names" -X PROPFIND -H 'Depth: 1' "${xml[@]}" --data-binary @"$work/propfindmax.xml" "$tasks"
times=$repeat_heavy measure "REPORT multiget 10,000 hrefs with data" -X REPORT "${xml[@]}" --data-binary @"$work/multiget10k.xml" "$tasks"
times=$repeat_heavy measure "REPORT calendar-query with data" -X REPORT -H 'Depth: 1' "${xml[@]}" --data-binary @"$work/query.xml" "$tasks"
for f in propfind10k propfindmax multiget10k; do
    printf '%-44s %s bytes in, %s bytes out\n' "  ($f)" "$(wc -c < "$work/$f.xml")" \
        "$(curl -s -X "$([ $f = multiget10k ] && echo REPORT || echo PROPFIND)" -H 'Depth: 1' "${xml[@]}" --data-binary @"$work/$f.xml" "$tasks" | wc -c)"
done
printf 'largest growth: %d KB, %s\n' "$largest" "$largest_label"
