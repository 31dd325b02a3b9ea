#!/usr/bin/env bash
# am2j's message path on one thread beside its floor: MessagingBenchmark's roundTrip, oneWay and burst over each
# route and FloorBenchmark's (the minimal AM-II layer of FusedAmFloor on single-writer rings), in one JMH run of
# bin/am2j jmh with the CPU-time profiler. Writes JMH's JSON to OUTPUT.json and a Markdown report of it, with the
# command and the machine state, to OUTPUT.md: per benchmark and route the median over the forks (each fork's score
# is the mean of its measured iterations, as JMH's), the forks' range, and am2j / floor, for the wall-clock score and
# for the CPU time per operation (cpu.ns/op, which a loaded machine moves less); then whether the round trips meet
# the target (at most 80 ns each for shm and inproc, as the README says; net has none).
# Usage: [ROUTES=inproc,shm,net] [FORKS=5] perf/scripts/messaging-jmh.sh [OUTPUT] [more JMH options]
#        (OUTPUT defaults to perf/results/messaging-jmh; JMH's defaults otherwise: 5 + 5 iterations of 1 s)
set -euo pipefail
root="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)"
out="${1:-$root/perf/results/messaging-jmh}"
shift || true
routes="${ROUTES:-inproc,shm,net}"
forks="${FORKS:-5}"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
"$root/bin/am2j" help > /dev/null # builds perf/target/lib when it is missing or stale
jmh=(jmh 'org.am2j.perf.jmh.(Messaging|Floor)Benchmark' -p "route=$routes" -f "$forks"
    -prof org.am2j.perf.jmh.CpuTimeProfiler -rf json -rff "$out.json" "$@")
started="$(date -u +%Y-%m-%dT%H:%MZ)"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
"$root/bin/am2j" "${jmh[@]}" >&2
python3 - "$out.json" "bin/am2j ${jmh[*]//$root\//}" "$started" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    "$(git -C "$root" rev-parse --short HEAD)" "$("$java" -version 2>&1 | head -1)" > "$out.md" <<'PY'
import json, os, statistics, sys
path, command, started, load_before, load_after, commit, jvm = sys.argv[1:8]
runs = json.load(open(path))

def forks(metric):
    """Each fork's score (the mean of its iterations): median, min, max."""
    scores = [statistics.mean(fork) for fork in metric["rawData"]]
    return statistics.median(scores), min(scores), max(scores), len(scores)

cells = {}
for run in runs:
    name = run["benchmark"].rsplit(".", 2)
    route = run.get("params", {}).get("route", "floor")
    cells[(name[-1], route)] = (forks(run["primaryMetric"]),
        forks(run["secondaryMetrics"]["cpu.ns/op"]) if "cpu.ns/op" in run.get("secondaryMetrics", {}) else None,
        forks(run["secondaryMetrics"]["cpu.share"]) if "cpu.share" in run.get("secondaryMetrics", {}) else None)
model = open("/proc/cpuinfo").read().split("model name")[1].split(":")[1].split("\n")[0].strip()
print("# am2j's message path on one thread beside its floor (JMH)")
print()
print("Command: `perf/scripts/messaging-jmh.sh`, that is `%s` (%s, git %s, %s)" % (command, started, commit, jvm))
print()
print("Machine: %d CPUs, %s, load %s before and %s after the run." % (os.cpu_count(), model, load_before, load_after))
print()
if max(float(load_before.split()[0]), float(load_after.split()[0])) > os.cpu_count():
    print("The load was above the CPU count: other processes shared the CPUs, so the wall-clock scores include")
    print("waiting for one (the CPU share says how much); compare the CPU columns.")
    print()
print("`MessagingBenchmark` sends with the public API between two endpoints of one SEQ bundle over the route and polls")
print("the bundle; `FloorBenchmark` is the same three benchmarks over `FusedAmFloor`'s minimal AM-II layer (tag and")
print("argument-count checks, handler table, token, reply from the handler) on single-writer rings (`perf/README.md`).")
print("One thread, no cache line moves between cores. Each cell: the median over the forks of each fork's mean")
print("score, and the forks' range; the ratios are of the medians. Wall clock is JMH's score; CPU is the forked")
print("JVM's CPU time per operation (`CpuTimeProfiler`), which time spent waiting for a processor does not move; CPU")
print("share is CPU time over wall-clock time (about 1 on a quiet machine). JSON: `%s`." % os.path.basename(path))
print()
print("| benchmark | route | forks | wall ns/op | am2j / floor, wall | CPU ns/op | am2j / floor, CPU | CPU share |")
print("|---|---|---|---|---|---|---|---|")

def cell(stats, digits=1):
    return "%.*f [%.*f-%.*f]" % (digits, stats[0], digits, stats[1], digits, stats[2]) if stats else "-"

def ratio(a, b):
    return "**%.2f**" % (a[0] / b[0]) if a and b else "-"

for bench in ("roundTrip", "oneWay", "burst"):
    floor = cells.get((bench, "floor"), (None, None, None))
    for route in ["floor"] + sorted(r for b, r in cells if b == bench and r != "floor"):
        if (bench, route) in cells:
            wall, cpu, share = cells[(bench, route)]
            print("| `%s` | `%s` | %d | %s | %s | %s | %s | %s |" % (bench, route, wall[3], cell(wall),
                ratio(wall, floor[0]), cell(cpu), ratio(cpu, floor[1]), cell(share, 2)))

# The target of this benchmark, as the README states it: the round trip of each route at most 80 ns (JMH's score).
TARGET_NS = 80
judged = [(route, cells[("roundTrip", route)][0][0]) for route in ("inproc", "shm") if ("roundTrip", route) in cells]
if judged:
    print()
    print("Target: `roundTrip` of `shm` and `inproc` at most %d ns each (the wall-clock median): %s." % (TARGET_NS,
        "; ".join("`%s` %.1f ns, %s" % (route, ns, "met" if ns <= TARGET_NS else "not met") for route, ns in judged)))
PY
echo "wrote $out.json and $out.md" >&2
