#!/usr/bin/env bash
# A/B of two builds by `bin/am2j pingpong`: builds each git revision in a worktree of its own, then runs their
# ping-pongs alternately, PAIRS (default 6) times, base first in odd pairs and new first in even ones, and writes the
# medians and ranges per build, the per-pair differences and the machine state as Markdown to OUTPUT (default
# perf/results/ab-pingpong-BASE-NEW.md). One run of one build at a time: on this machine a change smaller than the
# state changes between runs minutes apart is only seen by alternating runs.
#
# For shared memory the figure to compare is `ratio_p50_interleaved` (each run's round trips against the pair's own
# cache line in alternating blocks); the minimum round trip is steadier than the p50. Runs flagged in a slow epoch
# are listed and left out of the medians. The same revision as both A and B gives the method's own spread (an A/A).
#
# Usage: [PAIRS=N] [PROTOCOL=shm] perf/scripts/ab-pingpong.sh BASE_REV [NEW_REV] [OUTPUT.md] [-- PINGPONG OPTIONS]
#   NEW_REV defaults to HEAD; the revisions are built from their commits (offline: `mvn -o`), not from the working
#   tree. OUTPUT.md defaults to perf/results/ab-pingpong-<base hash>-<new hash>.md; every run's JSON is kept in the
#   directory of the same name without .md.
set -euo pipefail
root="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)"
usage() {
    sed -n '2,15p' "${BASH_SOURCE[0]}" | cut -c3- >&2
    exit 2
}
positional() { # true when $1 is a positional argument: not an option, not the end of them
    [[ "$1" != -* ]]
}
if [[ $# -lt 1 ]] || ! positional "$1"; then usage; fi
base_rev="$1"; shift
new_rev="HEAD"
if [[ $# -gt 0 ]] && positional "$1"; then new_rev="$1"; shift; fi
out=""
if [[ $# -gt 0 ]] && positional "$1"; then out="$1"; shift; fi
if [[ $# -gt 0 ]]; then
    # Only "--" may follow: a pingpong option without it would be taken for a revision or the output file.
    [[ "$1" == "--" ]] || { echo "ab-pingpong: '$1': pingpong options go after --" >&2; usage; }
    shift
fi
base="$(git -C "$root" rev-parse --short "$base_rev^{commit}")"
new="$(git -C "$root" rev-parse --short "$new_rev^{commit}")"
out="${out:-$root/perf/results/ab-pingpong-$base-$new.md}"
if ! mkdir -p -- "${out%.md}" || [[ ! -w "$(dirname -- "$out")" ]]; then
    echo "ab-pingpong: cannot write $out" >&2
    exit 2
fi
pairs="${PAIRS:-6}"
protocol="${PROTOCOL:-shm}"
if ! [[ "$pairs" =~ ^[1-9][0-9]*$ ]]; then
    echo "ab-pingpong: PAIRS must be a positive number, not '$pairs'" >&2
    exit 2
fi

work="$(mktemp -d)"
cleanup() {
    for side in a b; do
        if [[ -d "$work/$side" ]]; then
            git -C "$root" worktree remove --force "$work/$side" > /dev/null 2>&1 || true
        fi
    done
    rm -rf -- "$work"
    git -C "$root" worktree prune > /dev/null 2>&1 || true
}
trap cleanup EXIT

build() { # side revision
    git -C "$root" worktree add -q --detach --force "$work/$1" "$2"
    echo "ab-pingpong: building $2 in $work/$1" >&2
    (cd "$work/$1" && mvn -B -o -q -DskipTests package > "$work/build-$1.log" 2>&1) || {
        echo "ab-pingpong: the build of $2 failed:" >&2
        tail -20 "$work/build-$1.log" >&2
        exit 1
    }
}
build a "$base"
build b "$new"

started="$(date -u +%Y-%m-%dT%H:%MZ)"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for pair in $(seq 1 "$pairs"); do
    order=(a b)
    if (( pair % 2 == 0 )); then order=(b a); fi
    for side in "${order[@]}"; do
        echo "ab-pingpong: pair $pair, $([[ $side == a ]] && echo "base $base" || echo "new $new")" >&2
        "$work/$side/bin/am2j" pingpong --protocol "$protocol" --json "$work/$side-$pair.json" "$@" \
            > "$work/$side-$pair.txt" 2>&1 || {
            echo "ab-pingpong: the run failed:" >&2
            tail -20 "$work/$side-$pair.txt" >&2
            exit 1
        }
    done
done

cp -- "$work"/[ab]-*.json "${out%.md}/"
python3 - "$work" "$pairs" "$base" "$new" "$protocol" "$started" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    "$*" "$base_rev" "$new_rev" "$(basename -- "${out%.md}")" > "$work/summary.md" <<'PY'
import json, os, statistics, sys
work, pairs, base, new, protocol, started, load_before, load_after, options, base_rev, new_rev, runs_dir = sys.argv[1:13]
pairs = int(pairs)
runs = {side: [json.load(open(os.path.join(work, "%s-%d.json" % (side, p)))) for p in range(1, pairs + 1)]
        for side in "ab"}
fields = [("rtt_p50_ns", "RTT p50 (ns)"), ("rtt_min_ns", "RTT min (ns)"), ("ratio_p50", "ratio p50, separate limit"),
          ("ratio_p50_interleaved", "ratio p50, interleaved"), ("os_ns", "o_s mean (ns)")]
dropped = [label for key, label in fields
           if not all(r.get(key) is not None for side in "ab" for r in runs[side])]
fields = [(key, label) for key, label in fields if label not in dropped]

def fmt(v):
    return "%.3f" % v if isinstance(v, float) and v < 10 else "%.0f" % v

def fmt_diff(key, v):
    return "%+.3f" % v if key.startswith("ratio") else "%+.1f" % v

def model():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "?"

print("# A/B: `bin/am2j pingpong --protocol %s`, git `%s` (A) against `%s` (B)" % (protocol, base, new))
print()
print("Command: `perf/scripts/ab-pingpong.sh %s %s` (A = %s, B = %s; PAIRS=%d, PROTOCOL=%s%s), %s." % (
    base_rev, new_rev, base, new, pairs, protocol, ", pingpong options `%s`" % options if options else "", started))
print()
print("Machine: %d CPUs, %s, load %s after the two builds and %s after the runs." % (
    os.cpu_count(), model(), load_before, load_after))
print()
print("Each build in its own worktree; the runs alternate, A first in odd pairs and B first in even ones. Medians")
print("and ranges over the runs outside slow epochs; a difference is B - A of the same pair (both runs outside).")
print("Every run's JSON: `%s/` (`a-N.json`, `b-N.json`)." % runs_dir)
if dropped:
    print()
    print("Left out, missing from some run's JSON (a revision before them): %s." % ", ".join(dropped))
print()
slow = {side: [r.get("slow_epoch", False) for r in runs[side]] for side in "ab"}
print("| figure | A median [range] | B median [range] | B - A per pair, median [range] | pairs B lower / equal / higher |")
print("|---|---|---|---|---|")
for key, label in fields:
    cells = []
    for side in "ab":
        values = [r[key] for r, s in zip(runs[side], slow[side]) if not s]
        cells.append("%s [%s-%s]" % (fmt(statistics.median(values)), fmt(min(values)), fmt(max(values)))
                     if values else "-")
    diffs = [b[key] - a[key] for a, b, sa, sb in zip(runs["a"], runs["b"], slow["a"], slow["b"]) if not sa and not sb]
    if diffs:
        cells.append("%s [%s, %s]" % (fmt_diff(key, statistics.median(diffs)), fmt_diff(key, min(diffs)),
                                      fmt_diff(key, max(diffs))))
        cells.append("%d / %d / %d" % (sum(1 for d in diffs if d < 0), sum(1 for d in diffs if d == 0),
                                       sum(1 for d in diffs if d > 0)))
    else:
        cells += ["-", "-"]
    print("| %s | %s |" % (label, " | ".join(cells)))
print()
print("| pair | " + " | ".join("A %s | B %s" % (label, label) for key, label in fields) + " | slow epoch (A, B) |")
print("|---|" + "---|" * (2 * len(fields)) + "---|")
for p in range(pairs):
    a, b = runs["a"][p], runs["b"][p]
    print("| %d | %s | %s, %s |" % (p + 1, " | ".join("%s | %s" % (fmt(a[k]), fmt(b[k])) for k, _ in fields),
                                    "yes" if slow["a"][p] else "no", "yes" if slow["b"][p] else "no"))
PY
mv -- "$work/summary.md" "$out"
echo "ab-pingpong: wrote $out and the runs' JSON in ${out%.md}/" >&2
