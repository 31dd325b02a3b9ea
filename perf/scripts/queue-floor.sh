#!/usr/bin/env bash
# The floor of the shared-memory protocol's cache traffic (org.am2j.perf.QueueFloor): every variant RUNS times
# (default 5), interleaved, each a JVM confined to two CPUs with taskset; writes the median and range of the
# round-trip p50s per variant, with the machine state, as Markdown to perf/results/queue-floor.md (or $1).
# Usage: [RUNS=N] [ROUNDS=N] [CPUS=0,1] perf/scripts/queue-floor.sh [OUTPUT.md]
set -euo pipefail
root="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)"
out="${1:-$root/perf/results/queue-floor.md}"
runs="${RUNS:-5}"
rounds="${ROUNDS:-3000000}"
cpus="${CPUS:-0,1}"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
"$root/bin/am2j" help > /dev/null # builds perf/target/lib when it is missing or stale
work="$(mktemp -d)"
trap 'rm -rf -- "$work"' EXIT
variants=(line plain tail-cas packet-claim claim-word fused-am)
started="$(date -u +%Y-%m-%dT%H:%MZ)"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for run in $(seq 1 "$runs"); do
    for variant in "${variants[@]}"; do
        echo "queue-floor: run $run, $variant" >&2
        taskset -c "$cpus" "$java" -Dagrona.disable.bounds.checks=true \
            --add-opens java.base/jdk.internal.misc=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED \
            -cp "$root/perf/target/lib/*" org.am2j.perf.QueueFloor "$variant" "$rounds" >> "$work/$variant.txt"
    done
done
python3 - "$work" "$runs" "$rounds" "$cpus" "$started" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    "$(git -C "$root" rev-parse --short HEAD)" "$("$java" -version 2>&1 | head -1)" "${variants[@]}" > "$out" <<'PY'
import os, statistics, sys
work, runs, rounds, cpus, started, load_before, load_after, commit, jvm = sys.argv[1:10]
variants = sys.argv[10:]
cells = {}
for v in variants:
    lines = [l.split() for l in open(os.path.join(work, v + ".txt")) if l.strip()]
    cells[v] = ([int(l[2]) for l in lines], [int(l[4]) for l in lines])
line = statistics.median(cells["line"][0])
print("# Queue floor: the shared-memory protocol's cache traffic without the AM layer")
print()
print("Command: `perf/scripts/queue-floor.sh` (RUNS=%s, ROUNDS=%s, CPUS=%s; %s UTC, git %s, %s)" % (
    runs, rounds, cpus, started, commit, jvm))
print()
print("Machine: %d CPUs, %s, load %s before and %s after." % (
    os.cpu_count(), open("/proc/cpuinfo").read().split("model name")[1].split(":")[1].split("\n")[0].strip(),
    load_before, load_after))
print()
print("Two threads of one JVM confined to two CPUs ping-pong short messages through a request and a reply queue")
print("laid out like a queue block's (`org.am2j.perf.QueueFloor` says what each variant's send does). Each run: the")
print("round trips after the first fifth; the table gives the median and range over the runs of each run's p50 and")
print("p99, and the median p50 over the `line` variant's (the same pattern as `bin/am2j pingpong`'s limit).")
print()
print("| variant | RTT p50 (ns), median [range] | p99 (ns), median | p50 / line |")
print("|---|---|---|---|")
for v in variants:
    p50, p99 = cells[v]
    print("| `%s` | %d [%d-%d] | %d | %.2f |" % (v, statistics.median(p50), min(p50), max(p50),
        statistics.median(p99), statistics.median(p50) / line))
PY
echo "wrote $out" >&2
