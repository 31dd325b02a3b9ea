#!/usr/bin/env bash
# The poll-scheduler ablation of issue 5: for every scheduler x {shm, multi-shm, net, multi-net}, REPEAT (default
# 1) `bin/am2j pingpong --protocol P --poll S` runs, summarised as the median short-message RTT p50 per cell and
# each multi-protocol cell's ratio to its single-protocol cell, written as a Markdown table with the machine state
# to perf/results/polling-ablation.md (or the file given as $1). Extra arguments go to every pingpong run (e.g.
# --quick, --rounds N).
# Usage: [REPEAT=N] [SCHEDULERS="every adaptive ..."] perf/scripts/polling-ablation.sh [OUTPUT.md] [pingpong options]
set -euo pipefail
root="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)"
out="${1:-$root/perf/results/polling-ablation.md}"
shift || true
work="$(mktemp -d)"
trap 'rm -rf -- "$work"' EXIT

read -r -a schedulers <<< "${SCHEDULERS:-every fractional:8 fractional:32 adaptive calibrated follow}"
protocols=(shm multi-shm net multi-net)
repeat="${REPEAT:-1}"
started="$(date -u +%Y-%m-%dT%H:%MZ)"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"

for run in $(seq 1 "$repeat"); do
    for scheduler in "${schedulers[@]}"; do
        for protocol in "${protocols[@]}"; do
            tag="${protocol}_${scheduler//:/-}_${run}"
            echo "polling-ablation: run $run, $protocol, --poll $scheduler" >&2
            "$root/bin/am2j" pingpong --protocol "$protocol" --poll "$scheduler" --json "$work/$tag.json" "$@" \
                > "$work/$tag.txt" 2>&1 || { echo "failed: $tag" >&2; tail -20 "$work/$tag.txt" >&2; exit 1; }
        done
    done
done

python3 - "$work" "$repeat" "$started" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    "$(git -C "$root" rev-parse --short HEAD)" "$*" "${schedulers[@]}" > "$out" <<'PY'
import glob, json, os, statistics, sys
work, repeat, started, load_before, load_after, commit, extra = sys.argv[1:8]
schedulers = sys.argv[8:]
protocols = ["shm", "multi-shm", "net", "multi-net"]
def runs(protocol, scheduler):
    pattern = os.path.join(work, "%s_%s_*.json" % (protocol, scheduler.replace(":", "-")))
    return [json.load(open(f)) for f in sorted(glob.glob(pattern))]
def med(values):
    return statistics.median(values) if values else float("nan")
cells = {}
for s in schedulers:
    for p in protocols:
        rs = runs(p, s)
        cells[(p, s)] = {
            "rtt": med([r["rtt_p50_ns"] for r in rs]),
            "limit": med([r.get("limit_udp_rtt_p50_ns", r["limit_rtt_p50_ns"]) for r in rs]),
            "same": med([r["ratio_p50_single_protocol"] for r in rs if "ratio_p50_single_protocol" in r]),
            "slow": sum(1 for r in rs if r.get("slow_epoch")),
            "n": len(rs)}
print("# Poll-scheduler ablation")
print()
print("Command: `perf/scripts/polling-ablation.sh %s` (REPEAT=%s; %s UTC, git %s)" % (extra, repeat, started, commit))
print()
print("Machine: %d CPUs, %s, load %s before and %s after." % (
    os.cpu_count(), open("/proc/cpuinfo").read().split("model name")[1].split(":")[1].split("\n")[0].strip(),
    load_before, load_after))
print()
print("Each cell: median over the runs of `bin/am2j pingpong --protocol P --poll S` short-message RTT p50 (ns).")
print("`shm` and `net` open one protocol (the scheduler only matters for `net`, whose every poll is a network")
print("poll); `multi-shm` and `multi-net` open both. Each multi-protocol cell has two ratios to its single protocol:")
print("over the single-protocol cell of the same scheduler (separate runs), and the median of the runs' own")
print("`ratio_p50_single_protocol` (each multi-protocol run also measures its single protocol, in the same run).")
print("Limits measured in the same runs: cache-line ping-pong between two JVMs (shared memory) and plain UDP")
print("ping-pong (network).")
print()
print("| scheduler | shm | multi-shm | multi-shm / shm (cells; same run) | net | multi-net | multi-net / net (cells; same run) | limits (cache line, UDP) | slow-epoch runs |")
print("|---|---|---|---|---|---|---|---|---|")
for s in schedulers:
    c = lambda p: cells[(p, s)]
    print("| `%s` | %.0f | %.0f | %.2f; %.2f | %.0f | %.0f | %.2f; %.2f | %.0f, %.0f | %d of %d |" % (
        s, c("shm")["rtt"], c("multi-shm")["rtt"], c("multi-shm")["rtt"] / c("shm")["rtt"], c("multi-shm")["same"],
        c("net")["rtt"], c("multi-net")["rtt"], c("multi-net")["rtt"] / c("net")["rtt"], c("multi-net")["same"],
        c("shm")["limit"], c("net")["limit"], sum(c(p)["slow"] for p in protocols), sum(c(p)["n"] for p in protocols)))
PY
echo "wrote $out" >&2
