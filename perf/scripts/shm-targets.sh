#!/usr/bin/env bash
# The shared-memory round trip against its targets: ROUNDS (default 5) alternating runs of
#   bin/am2j pingpong --protocol shm --quick --size 8192 --json FILE
#   bin/am2j logp --quick --json FILE
# then perf/results/pingpong-shm.{md,json} and perf/results/logp.{md,json} replaced: every run's JSON (keyed
# pingpong-shm-N and runN), a table per file with each run's figures and machine state, and the verdicts the README
# states, as medians over the runs outside slow epochs of the vCPUs (all runs when none is):
#   pingpong: ratio_p50_interleaved at most 2.0; 8 KiB medium round trip at most 1.5x the 8 KiB limit of the same
#             run (two pinned threads passing the buffer, each reading all of it); 8 KiB bandwidth at least 8 GB/s;
#   logp:     shm round trip at most 1.20x Aeron IPC of the same run; net at most 1.0x Aeron UDP.
# Usage: [ROUNDS=5] perf/scripts/shm-targets.sh [OUTPUT_DIR]   (OUTPUT_DIR defaults to perf/results)
set -euo pipefail
root="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)"
out="${1:-$root/perf/results}"
rounds="${ROUNDS:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$root/bin/am2j" help > /dev/null # builds perf/target/lib when it is missing or stale
started="$(date -u +%Y-%m-%dT%H:%MZ)"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 1; i <= rounds; i++)); do
    echo "shm-targets: round $i of $rounds: pingpong" >&2
    "$root/bin/am2j" pingpong --protocol shm --quick --size 8192 --json "$work/pingpong-shm-$i.json" \
        > "$work/pingpong-shm-$i.txt"
    echo "shm-targets: round $i of $rounds: logp" >&2
    "$root/bin/am2j" logp --quick --json "$work/logp-$i.json" > "$work/logp-$i.txt"
done
python3 - "$work" "$out" "$rounds" "$started" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    "$(git -C "$root" rev-parse --short HEAD)" <<'PY'
import json, os, statistics, sys
work, out, rounds, started, load_before, load_after, commit = sys.argv[1:8]
rounds = int(rounds)
pp = {"pingpong-shm-%d" % i: json.load(open("%s/pingpong-shm-%d.json" % (work, i))) for i in range(1, rounds + 1)}
lp = {"run%d" % i: json.load(open("%s/logp-%d.json" % (work, i))) for i in range(1, rounds + 1)}
json.dump(pp, open(os.path.join(out, "pingpong-shm.json"), "w"), indent=1)
json.dump(lp, open(os.path.join(out, "logp.json"), "w"), indent=1)
first = next(iter(pp.values()))["machine"]
model = open("/proc/cpuinfo").read().split("model name")[1].split(":")[1].split("\n")[0].strip()
machine = ("%d vCPUs (%s), %s, %s; load average %s before the runs and %s after; git %s" %
           (first["cpus"], model, first["os"], first["java"], load_before, load_after, commit))

def med(values):
    values = [v for v in values if v is not None]
    return (statistics.median(values), min(values), max(values)) if values else None

def fmt(m, digits=2):
    return "n/a" if m is None else ("%.*f (%.*f-%.*f)" % (digits, m[0], digits, m[1], digits, m[2]))

def verdict(m, limit, at_most=True):
    if m is None:
        return "not measured"
    return "**met**" if (m[0] <= limit if at_most else m[0] >= limit) else "**not met**"

def counted(runs, slow):
    fast = [r for r in runs if not slow(r)]
    return (fast, "the %d of %d runs outside slow epochs" % (len(fast), len(runs))) if fast else \
        (runs, "all %d runs (every one had a slow epoch)" % len(runs))

def medians_of(rows, columns):
    """Median (min, max) of each named column over the rows."""
    return {name: med([row[i] for row in rows]) for name, i in columns.items()}

def targets_table(p, heading, entries):
    """The medians against their targets: entries of (figure, median, target, verdict)."""
    p()
    p(heading)
    p()
    p("| figure | median (range) | target | verdict |")
    p("|---|---:|---|---|")
    for entry in entries:
        p("| %s | %s | %s | %s |" % entry)

# Ping-pong
rows = []
for key, r in pp.items():
    medium_limit = r.get("limit_medium_rtt_p50_ns")
    rows.append((key, r["timestamp"][11:19], r["rtt_p50_ns"], r["rtt_p99_ns"], r["rtt_min_ns"], r["limit_rtt_p50_ns"],
                 r["ratio_p50_interleaved"], r["os_ns"], r.get("medium_rtt_p50_ns"), medium_limit,
                 r["medium_rtt_p50_ns"] / medium_limit if medium_limit else None, r["bw_8k_gbps"],
                 r["machine"]["load_avg_1m"], r["slow_epoch"]))
fast, which = counted(rows, lambda row: row[13])
m = medians_of(fast, {"rtt": 2, "ratio": 6, "medium": 10, "bw": 11})
with open(os.path.join(out, "pingpong-shm.md"), "w") as f:
    p = lambda *a: print(*a, file=f)
    p("# Shared-memory ping-pong: `bin/am2j pingpong --protocol shm`")
    p()
    p("- Command: `perf/scripts/shm-targets.sh` (ROUNDS=%d): each round `bin/am2j pingpong --protocol shm --quick "
      "--size 8192 --json FILE`, then `bin/am2j logp --quick --json FILE` (`logp.md`); started %s." % (rounds, started))
    p("- `--quick`: 100,000 timed round trips after a warm-up that lasts until the JIT compiler has settled; `--size "
      "8192` adds the round trip of an 8 KiB medium message, whose handler reads every byte, and its limit: two pinned "
      "threads passing an 8 KiB buffer back and forth, each reading all of it. The two rank JVMs are pinned to CPUs 0 "
      "and 1.")
    p("- Machine: %s." % machine)
    p("- Files: `pingpong-shm.json` holds each run's JSON, keyed as in the first column (`perf/README.md` lists the "
      "fields).")
    p()
    p("| run | UTC | RTT p50 / p99 / min (ns) | line p50 (ns) | am2j / line, interleaved | o_s (ns) | 8 KiB medium RTT p50 (ns) "
      "| 8 KiB limit p50 (ns) | medium / limit | 8 KiB GB/s | load 1 min | slow epoch |")
    p("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for row in rows:
        p("| `%s` | %s | %d / %d / %d | %d | %.2f | %.0f | %s | %s | %s | %.2f | %.2f | %s |" % (
            row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7],
            "n/a" if row[8] is None else "%d" % row[8], "n/a" if row[9] is None else "%d" % row[9],
            "n/a" if row[10] is None else "%.2f" % row[10], row[11], row[12], "yes" if row[13] else "no"))
    targets_table(p, "Medians (range) over %s:" % which, [
        ("round trip p50 (ns)", fmt(m["rtt"], 0), "", ""),
        ("am2j / cache line, interleaved", fmt(m["ratio"]), "at most 2.0", verdict(m["ratio"], 2.0)),
        ("8 KiB medium / 8 KiB limit", fmt(m["medium"]), "at most 1.5", verdict(m["medium"], 1.5)),
        ("8 KiB bandwidth (GB/s)", fmt(m["bw"]), "at least 8", verdict(m["bw"], 8.0, at_most=False))])

# LogP
rows = []
for key, r in lp.items():
    ratios, peers = r["ratios"], r["peers"]
    # A run counts for shared memory when none of its shared-memory round trips, nor the peers they are held
    # against, was measured in a slow epoch.
    slow = any(m in ("shm.rtt", "multi_shm.rtt", "aeron_ipc", "limit_shm") for m in r["slow_epoch_measurements"])
    rows.append((key, r["timestamp"][11:19], r["shm"]["rtt_us"], peers["aeron_ipc_rtt_us"],
                 ratios["shm_rtt_over_aeron_ipc"], r["multi_shm"]["rtt_us"], ratios["multi_shm_rtt_over_aeron_ipc"],
                 r["net"]["rtt_us"], peers["aeron_udp_rtt_us"], ratios["net_rtt_over_aeron_udp"],
                 ratios["multi_net_rtt_over_aeron_udp"], peers["limit_shm_rtt_us"], r["shm"]["os_us"] * 1000,
                 slow))
fast, which = counted(rows, lambda row: row[13])
m = medians_of(fast, {"shm": 4, "multi_shm": 6})
m.update(medians_of(rows, {"net": 9, "multi_net": 10}))
with open(os.path.join(out, "logp.md"), "w") as f:
    p = lambda *a: print(*a, file=f)
    p("# LogP parameters: `bin/am2j logp --quick`")
    p()
    p("- Command: `perf/scripts/shm-targets.sh` (ROUNDS=%d): each round a shared-memory `pingpong` run "
      "(`pingpong-shm.md`), then `bin/am2j logp --quick --json FILE`; started %s. `--quick`: 100,000 round trips per "
      "ping-pong after 20,000 warm-up, signature bursts 1..256 over shared memory and 1..1024 over the network, 4 "
      "delays, 10 repetitions, transfers of 64 B..1 MiB; method and formulas in `docs/logp.md`." % (rounds, started))
    p("- Machine: %s; every rank pair pinned to CPUs 0 and 1." % machine)
    p("- Files: `logp.json` holds each run's JSON under `run1`..`run%d`: every number, the signature and transfer "
      "curves, the machine state of every measurement." % rounds)
    p()
    p("| run | UTC | `shm` RTT (us) | Aeron IPC (us) | shm / Aeron IPC | `multi_shm` (us) | multi_shm / Aeron IPC "
      "| `net` RTT (us) | Aeron UDP (us) | net / Aeron UDP | multi_net / Aeron UDP | cache line (us) | shm o_s (ns) "
      "| shm in a slow epoch |")
    p("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for row in rows:
        p("| `%s` | %s | %.3f | %.3f | %.2f | %.3f | %.2f | %.2f | %.2f | %.2f | %.2f | %.3f | %.0f | %s |" % (
            row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9], row[10], row[11], row[12],
            "yes" if row[13] else "no"))
    targets_table(p, "Medians (range); shared memory over %s, the network over all runs:" % which, [
        ("`shm` RTT / Aeron IPC RTT", fmt(m["shm"]), "at most 1.20", verdict(m["shm"], 1.20)),
        ("`multi_shm` RTT / Aeron IPC RTT", fmt(m["multi_shm"]), "", ""),
        ("`net` RTT / Aeron UDP RTT", fmt(m["net"]), "at most 1.0", verdict(m["net"], 1.0)),
        ("`multi_net` RTT / Aeron UDP RTT", fmt(m["multi_net"]), "", "")])
    p()
    p("Run %d's printed output:" % rounds)
    p()
    p("```")
    p(open("%s/logp-%d.txt" % (work, rounds)).read().rstrip())
    p("```")
PY
echo "shm-targets: wrote $out/pingpong-shm.md and $out/logp.md" >&2
