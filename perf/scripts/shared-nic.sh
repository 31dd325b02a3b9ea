#!/usr/bin/env bash
# What a shared NIC process costs: REPEAT (default 3) pairs of runs of `bin/am2j pingpong --protocol net` and
# `bin/am2j logp`, each pair one run with the in-process NIC and one with --nics-per-node 1, the order swapped from
# pair to pair so that a machine that slows down or speeds up touches both kinds alike. Every run's JSON is kept as
# DIR/shared-nic-{pingpong,logp}-{inproc,shared}-N.json, its output as .txt beside it, and the machine state before
# each run (date, uptime) in DIR/shared-nic-runs.log; then the medians and ranges are printed as Markdown tables.
# Usage: [REPEAT=N] [PINGPONG="--quick"] [LOGP="--quick"] [PARTS="pingpong logp"] perf/scripts/shared-nic.sh [DIR]
# DIR defaults to perf/results. `perf/scripts/shared-nic.sh --summary [DIR]` prints the tables of the runs kept.
set -euo pipefail
root="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)"
summary_only=false
if [[ "${1:-}" == "--summary" ]]; then
    summary_only=true
    shift
fi
dir="${1:-$root/perf/results}"
repeat="${REPEAT:-3}"
read -r -a pingpong_args <<< "${PINGPONG:---quick}"
read -r -a logp_args <<< "${LOGP:---quick}"
read -r -a parts <<< "${PARTS:-pingpong logp}"
log="$dir/shared-nic-runs.log"

run() {
    local part="$1" kind="$2" n="$3"
    local base="$dir/shared-nic-$part-$kind-$n"
    local nic=()
    [[ "$kind" == shared ]] && nic=(--nics-per-node 1)
    local cmd
    if [[ "$part" == pingpong ]]; then
        cmd=("$root/bin/am2j" pingpong --protocol net "${nic[@]}" "${pingpong_args[@]}" --json "$base.json")
    else
        cmd=("$root/bin/am2j" logp "${nic[@]}" "${logp_args[@]}" --json "$base.json")
    fi
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) start $part $kind $n: $(uptime) :: ${cmd[*]#$root/}" >> "$log"
    echo "shared-nic: $part $kind run $n" >&2
    if ! "${cmd[@]}" > "$base.txt" 2>&1; then
        echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) FAILED $part $kind $n" >> "$log"
        echo "shared-nic: $part $kind run $n failed:" >&2
        tail -5 "$base.txt" >&2
        return 0
    fi
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) end $part $kind $n: $(uptime)" >> "$log"
}

if ! $summary_only; then
    mkdir -p "$dir"
    for n in $(seq 1 "$repeat"); do
        for part in "${parts[@]}"; do
            if (( n % 2 )); then order=(inproc shared); else order=(shared inproc); fi
            for kind in "${order[@]}"; do
                run "$part" "$kind" "$n"
            done
        done
    done
fi

python3 - "$dir" <<'PY'
import glob, json, os, re, statistics, sys
d = sys.argv[1]
def load(part, kind):
    runs = []
    for f in sorted(glob.glob(os.path.join(d, "shared-nic-%s-%s-*.json" % (part, kind)))):
        try:
            runs.append((re.search(r"-(\d+)\.json$", f).group(1), json.load(open(f))))
        except ValueError:
            pass
    return runs
def cell(values, fmt):
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    med = statistics.median(values)
    return (fmt % med) + " (" + (fmt % min(values)) + "-" + (fmt % max(values)) + ")"
def table(part, rows):
    runs = {k: load(part, k) for k in ("inproc", "shared")}
    if not any(runs.values()):
        return
    print("\n%s: median (min-max) of %d in-process and %d shared runs\n" % (part, len(runs["inproc"]), len(runs["shared"])))
    print("| figure | in-process NIC | shared NIC (1 per node) | shared / in-process |")
    print("|---|---|---|---|")
    for label, get, fmt in rows:
        vals = {}
        for k in runs:
            vals[k] = []
            for _, j in runs[k]:
                try:
                    vals[k].append(get(j))
                except (KeyError, TypeError):
                    vals[k].append(None)
        a = [v for v in vals["inproc"] if v is not None]
        b = [v for v in vals["shared"] if v is not None]
        ratio = "%.2f" % (statistics.median(b) / statistics.median(a)) if a and b and statistics.median(a) else "-"
        print("| %s | %s | %s | %s |" % (label, cell(vals["inproc"], fmt), cell(vals["shared"], fmt), ratio))
    print("\nper run (load averages 1/5/15 min at its start):\n")
    for k in ("inproc", "shared"):
        for n, j in runs[k]:
            m = j.get("machine", {})
            loads = "%s %s %s" % (m.get("load_avg_1m"), m.get("load_avg_5m"), m.get("load_avg_15m"))
            print("- %s run %s, %s: load %s; slow epoch %s; busy %s" % (k, n, j.get("timestamp"), loads, j.get("slow_epoch"), m.get("busy")))
table("pingpong", [
    ("short RTT p50 (ns)", lambda j: j["rtt_p50_ns"], "%.0f"),
    ("short RTT p99 (ns)", lambda j: j["rtt_p99_ns"], "%.0f"),
    ("o_s, short request, mean (ns)", lambda j: j["os_ns"], "%.0f"),
    ("o_s, median burst per request (ns)", lambda j: j["os_burst_p50_ns"], "%.0f"),
    ("8 KiB bandwidth (GB/s)", lambda j: j["bw_8k_gbps"], "%.3f"),
    ("RTT, peer asleep p50 (ns)", lambda j: j["wake_rtt_p50_ns"], "%.0f"),
    ("plain UDP RTT p50, same run (ns)", lambda j: j["limit_udp_rtt_p50_ns"], "%.0f"),
    ("RTT / plain UDP, interleaved", lambda j: j["ratio_p50_interleaved_udp"], "%.2f"),
    ("plain UDP 8 KiB stream (GB/s)", lambda j: j["udp_bw_8k_gbps"], "%.3f"),
])
table("logp", [
    ("net RTT (us)", lambda j: j["net"]["rtt_us"], "%.2f"),
    ("net o_s (us)", lambda j: j["net"]["os_us"], "%.3f"),
    ("net o_r (us)", lambda j: j["net"]["or_us"], "%.3f"),
    ("net g (us)", lambda j: j["net"]["g_us"], "%.3f"),
    ("net bandwidth (MB/s)", lambda j: j["net"]["bw_MBps"], "%.0f"),
    ("multi_net RTT (us)", lambda j: j["multi_net"]["rtt_us"], "%.2f"),
    ("multi_net o_s (us)", lambda j: j["multi_net"]["os_us"], "%.3f"),
    ("empty network poll (ns)", lambda j: j["poll_cost"]["network_poll_empty_ns"], "%.1f"),
    ("calibrated ratio r", lambda j: j["poll_cost"]["calibrated_ratio"], "%.1f"),
    ("calibrated empty poll (ns)", lambda j: j["poll_cost"]["calibrated_poll_empty_ns"], "%.1f"),
    ("shm RTT (us, unchanged config)", lambda j: j["shm"]["rtt_us"], "%.3f"),
])
PY
