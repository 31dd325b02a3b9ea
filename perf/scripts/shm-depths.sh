#!/usr/bin/env bash
# Measures the shared-memory transport's queue depths: for each (request depth, bulk depth) setting, REPEAT
# (default 3) `bin/am2j pingpong --protocol shm` runs (short RTT, o_s in bursts of 64, pipelined 8 KiB bandwidth),
# summarised as medians over the runs in a Markdown table with the machine state, written to
# perf/results/shm-depths.md (or the file given as $1).
# Usage: [REPEAT=N] perf/scripts/shm-depths.sh [OUTPUT.md] [extra pingpong options, e.g. --quick]
set -euo pipefail
root="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)"
out="${1:-$root/perf/results/shm-depths.md}"
shift || true
work="$(mktemp -d)"
trap 'rm -rf -- "$work"' EXIT

settings=("256 2" "256 4" "256 16" "256 32" "256 64" "64 16" "1024 16")
repeat="${REPEAT:-3}"
{
    echo "# Shared-memory queue depths"
    echo
    echo "Command: \`perf/scripts/shm-depths.sh $*\` ($(date -u +%Y-%m-%dT%H:%MZ), git $(git -C "$root" rev-parse --short HEAD))"
    echo
    echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), $(java -version 2>&1 | head -1)"
    echo
    echo "Each row is $repeat \`bin/am2j pingpong --protocol shm $*\` runs with \`AM2J_SHM_REQUESTDEPTH\`,"
    echo "\`AM2J_SHM_REPLYDEPTH\` (= request depth) and \`AM2J_SHM_BULKDEPTH\` set: medians over the runs of each"
    echo "run's figure, the bandwidth range over every timed bandwidth run; the limit is each run's cache-line"
    echo "ping-pong between two JVMs. Runs flagged in a slow epoch are counted in the last column."
    echo
    echo "| request depth | bulk depth | RTT p50 (ns) | limit p50 (ns) | o_s (ns) | 8 KiB GB/s median (min-max) | queue-full back-offs in bw | slow-epoch runs |"
    echo "|---|---|---|---|---|---|---|---|"
} > "$out"

for setting in "${settings[@]}"; do
    read -r depth bulk <<< "$setting"
    for run in $(seq 1 "$repeat"); do
        AM2J_SHM_REQUESTDEPTH="$depth" AM2J_SHM_REPLYDEPTH="$depth" AM2J_SHM_BULKDEPTH="$bulk" \
            "$root/bin/am2j" pingpong --protocol shm --json "$work/pp-$depth-$bulk-$run.json" "$@" \
            > "$work/pp-$depth-$bulk-$run.txt" 2>&1
    done
    python3 - "$work" "$depth" "$bulk" >> "$out" <<'PY'
import glob, json, statistics, sys
runs = [json.load(open(f)) for f in sorted(glob.glob("%s/pp-%s-%s-*.json" % tuple(sys.argv[1:4])))]
med = lambda key: statistics.median(r[key] for r in runs)
print("| %s | %s | %d | %d | %.1f | %.2f (%.2f-%.2f) | %d | %d of %d |" % (
    sys.argv[2], sys.argv[3], med("rtt_p50_ns"), med("limit_rtt_p50_ns"), med("os_ns"), med("bw_8k_gbps"),
    min(r["bw_8k_gbps_min"] for r in runs), max(r["bw_8k_gbps_max"] for r in runs),
    med("bw_8k_queue_full_backoffs"), sum(1 for r in runs if r.get("slow_epoch")), len(runs)))
PY
done
echo "wrote $out"
