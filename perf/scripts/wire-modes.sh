#!/usr/bin/env bash
# The network wire's modes side by side: `bin/am2j pingpong --protocol net --quick` with AM2J_NET_WIRE=encrypt,
# authenticate and off, one run of each in turn, ROUNDS rounds, on each JDK of JDKS. Every run measures its own
# plain-UDP limits (a separate pair and the interleaved blocks), so each mode is held against UDP of the same run and
# against the wire-off run next to it. Writes the runs' JSON to OUTPUT.json (keyed jdkN-MODE-ROUND) and a Markdown
# report to OUTPUT.md: the command, the machine state, a row per run, and per JDK and mode the median and range over
# the rounds of the short round trip, 8 KiB bandwidth, and their ratios to the wire-off run of the same round.
# Usage: [ROUNDS=3] [JDKS="/usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64"]
#        perf/scripts/wire-modes.sh [OUTPUT]      (OUTPUT defaults to perf/results/pingpong-net)
set -euo pipefail
root="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)"
out="${1:-$root/perf/results/pingpong-net}"
rounds="${ROUNDS:-3}"
jdks="${JDKS:-/usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64}"
modes=(encrypt authenticate off)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$root/bin/am2j" help > /dev/null # builds perf/target/lib when it is missing or stale
started="$(date -u +%Y-%m-%dT%H:%MZ)"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
n=0
for jdk in $jdks; do
    n=$((n + 1))
    "$jdk/bin/java" -version 2>&1 | head -1 > "$work/jdk$n.version"
    for round in $(seq 1 "$rounds"); do
        for mode in "${modes[@]}"; do
            echo "== jdk$n ($jdk) round $round: AM2J_NET_WIRE=$mode" >&2
            date -u +%H:%M:%S > "$work/jdk$n-$mode-$round.start"
            JAVA_HOME="$jdk" AM2J_NET_WIRE="$mode" "$root/bin/am2j" pingpong --protocol net --quick \
                --json "$work/jdk$n-$mode-$round.json" >&2
        done
    done
done
python3 - "$work" "$out" "$rounds" "$started" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    "$(git -C "$root" rev-parse --short HEAD)" "${modes[@]}" <<'PY'
import glob, json, os, statistics, sys
work, out, rounds, started, load_before, load_after, commit, *modes = sys.argv[1:]
rounds = int(rounds)
runs = {}
for path in sorted(glob.glob(os.path.join(work, "jdk*-*-*.json"))):
    runs[os.path.basename(path)[:-5]] = json.load(open(path))
with open(out + ".json", "w") as f:
    json.dump(runs, f, indent=1, sort_keys=True)
jdks = sorted({key.split("-")[0] for key in runs})

def run(jdk, mode, r):
    return runs.get(f"{jdk}-{mode}-{r}")

def median_range(values):
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    digits = ".0f" if statistics.median(values) >= 100 else ".3g"
    return f"{statistics.median(values):{digits}} ({min(values):{digits}}-{max(values):{digits}})"

lines = ["# Network ping-pong: the wire's modes (`encrypt`, `authenticate`, `off`) side by side", ""]
lines.append(f"- Command: `perf/scripts/wire-modes.sh` (ROUNDS={rounds}): per JDK and round, "
             "`AM2J_NET_WIRE=MODE bin/am2j pingpong --protocol net --quick --json FILE` for each mode in turn "
             f"({', '.join(modes)}). Started {started}; load average before {load_before}, after {load_after}; "
             f"commit {commit}.")
lines.append("- `--quick`: 100,000 timed round trips after the settled warm-up; 8 KiB bandwidth over its own runs "
             "(`perf/README.md`). Two emulated nodes on one machine, UDP over loopback (an 8 KiB message is one "
             "datagram), NIC `inline`, ranks pinned to CPUs 0 and 1.")
lines.append("- Limits measured by each run: plain UDP between am2j's two rank JVMs in blocks interleaved with the "
             "timed round trips (`ratio_p50_interleaved_udp`), and a plain UDP stream of 8 KiB datagrams "
             "(`udp_bw_8k_gbps`).")
for jdk in jdks:
    version = open(os.path.join(work, jdk + ".version")).read().strip()
    lines += ["", f"## {jdk}: {version}", ""]
    lines.append("| round | mode | start (UTC) | RTT p50 (ns) | / interleaved UDP | / wire off, same round | "
                 "8 KiB GB/s | / UDP stream | / wire off, same round | slow epoch |")
    lines.append("|---:|---|---|---:|---:|---:|---:|---:|---:|---|")
    for r in range(1, rounds + 1):
        off = run(jdk, "off", r)
        for mode in modes:
            x = run(jdk, mode, r)
            if x is None:
                continue
            start = open(os.path.join(work, f"{jdk}-{mode}-{r}.start")).read().strip()
            rtt_off = x["rtt_p50_ns"] / off["rtt_p50_ns"] if off else None
            bw_off = x["bw_8k_gbps"] / off["bw_8k_gbps"] if off else None
            lines.append(f"| {r} | {x.get('wire', mode)} | {start} | {x['rtt_p50_ns']:.0f} | "
                         f"{x['ratio_p50_interleaved_udp']:.3f} | {rtt_off:.3f} | {x['bw_8k_gbps']:.2f} | "
                         f"{x['bw_8k_gbps'] / x['udp_bw_8k_gbps']:.2f} | {bw_off:.2f} | {x.get('slow_epoch')} |")
    lines += ["", "Medians over the rounds (range):", ""]
    lines.append("| mode | RTT p50 (ns) | RTT / interleaved UDP | RTT / wire off | 8 KiB GB/s | 8 KiB / UDP stream | "
                 "8 KiB / wire off |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|")
    for mode in modes:
        xs = [(run(jdk, mode, r), run(jdk, "off", r)) for r in range(1, rounds + 1) if run(jdk, mode, r)]
        lines.append(f"| {mode} | {median_range([x['rtt_p50_ns'] for x, _ in xs])} | "
                     f"{median_range([x['ratio_p50_interleaved_udp'] for x, _ in xs])} | "
                     f"{median_range([x['rtt_p50_ns'] / o['rtt_p50_ns'] for x, o in xs if o])} | "
                     f"{median_range([x['bw_8k_gbps'] for x, _ in xs])} | "
                     f"{median_range([x['bw_8k_gbps'] / x['udp_bw_8k_gbps'] for x, _ in xs])} | "
                     f"{median_range([x['bw_8k_gbps'] / o['bw_8k_gbps'] for x, o in xs if o])} |")
lines += ["", f"Files: `{os.path.basename(out)}.json` holds every run's JSON (machine state included), keyed "
          "`jdkN-MODE-ROUND`.", ""]
with open(out + ".md", "w") as f:
    f.write("\n".join(lines))
PY
echo "wrote $out.md and $out.json" >&2
