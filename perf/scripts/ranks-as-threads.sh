#!/usr/bin/env bash
# The paper's EM3D and CON on 32 ranks over 4 emulated nodes with a JVM per rank and with the ranks of each node as
# threads of one JVM (--ranks-per-jvm 8; platform threads, and virtual threads where the JVM has them), one run of
# each placement after the other, then `am2j hello -n 128 --nodes 4` with a JVM per rank and with 32 ranks per JVM.
# Writes each app run's JSON under OUTPUT.d/ and a Markdown report with the commands, the machine state and the
# figures against the targets (EM3D/good 20 s, EM3D/naive 40 s, CON/comm 20 s, CON/comp 2.2 s, hello 15 s) to
# OUTPUT.md.
# Usage: [PLACEMENTS="1 8 8v"] [APPS="em3d con"] perf/scripts/ranks-as-threads.sh [OUTPUT]
#        (OUTPUT defaults to perf/results/ranks-as-threads; "8v" is 8 ranks per JVM as virtual threads)
set -euo pipefail
root="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)"
out="${1:-$root/perf/results/ranks-as-threads}"
placements="${PLACEMENTS:-1 8 8v}"
apps="${APPS:-em3d con}"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
feature="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
"$root/bin/am2j" help > /dev/null # builds perf/target/lib when it is missing or stale
rm -rf "$out.d"
mkdir -p "$out.d"
started="$(date -u +%Y-%m-%dT%H:%MZ)"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
runs="$out.d/runs.tsv"
: > "$runs"

for app in $apps; do
    for placement in $placements; do
        k="${placement%v}"
        env=()
        if [[ "$placement" == *v ]]; then
            if (( feature < 21 )); then
                echo "ranks-as-threads: skipping $placement: virtual threads need Java 21 (this is $feature)" >&2
                continue
            fi
            env=(AM2J_RANK_THREADS=virtual)
        fi
        json="$out.d/$app-k$placement.json"
        command=(app "$app" --preset paper -n 32 --nodes 4 --ranks-per-jvm "$k" --json "$json")
        echo "ranks-as-threads: ${env[*]} bin/am2j ${command[*]}" >&2
        load="$(cut -d' ' -f1 /proc/loadavg)"
        start=$(date +%s.%N)
        status=0
        env "${env[@]}" "$root/bin/am2j" "${command[@]}" > "$out.d/$app-k$placement.out" 2>&1 || status=$?
        wall="$(echo "$(date +%s.%N) - $start" | bc)"
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$app" "$placement" "$status" "$wall" "$load" "$json" \
            "${env[*]}${env[*]:+ }bin/am2j ${command[*]//$root\//}" >> "$runs"
    done
done

for k in 1 32; do
    command=(hello -n 128 --nodes 4 --ranks-per-jvm "$k")
    echo "ranks-as-threads: bin/am2j ${command[*]}" >&2
    load="$(cut -d' ' -f1 /proc/loadavg)"
    start=$(date +%s.%N)
    status=0
    "$root/bin/am2j" "${command[@]}" > "$out.d/hello-k$k.out" 2>&1 || status=$?
    wall="$(echo "$(date +%s.%N) - $start" | bc)"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' hello "$k" "$status" "$wall" "$load" - "bin/am2j ${command[*]}" >> "$runs"
done

python3 - "$runs" "$started" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    "$(git -C "$root" rev-parse --short HEAD)" "$("$java" -version 2>&1 | head -1)" "$(basename "$out").d" \
    > "$out.md" <<'PY'
import json, os, sys
path, started, load_before, load_after, commit, jvm, directory = sys.argv[1:8]
targets = {"EM3D/good": 20.0, "EM3D/naive": 40.0, "CON/comm": 20.0, "CON/comp": 2.2, "hello": 15.0}
names = {"1": "a JVM per rank", "8": "8 ranks per JVM, platform threads", "8v": "8 ranks per JVM, virtual threads",
         "32": "32 ranks per JVM"}
rows = [line.rstrip("\n").split("\t") for line in open(path) if line.strip()]
model = open("/proc/cpuinfo").read().split("model name")[1].split(":")[1].split("\n")[0].strip()
print("# Ranks as threads: 32 ranks of the paper's applications, and 128 ranks of hello, on 4 emulated nodes")
print()
print("Command: `perf/scripts/ranks-as-threads.sh` (%s, git %s, %s)" % (started, commit, jvm))
print()
print("Machine: %d CPUs, %s, load %s before and %s after the runs; each run's own starting load is in its row." %
      (os.cpu_count(), model, load_before, load_after))
print()
print("Each run is one job of `bin/am2j app` with the paper's inputs (`--preset paper`: both specs of the application")
print("one after the other), its `total_s` per spec (the slowest rank's timed phases, `--json`), every run verified")
print("against a sequential run. `--ranks-per-jvm 8` puts the 8 ranks of a node in one JVM: in-process between them,")
print("the network between nodes. JSON and output of each run: `%s/`." % directory)
print()
print("| spec | placement | total s | target s | met | verified | load at start | job wall s |")
print("|---|---|---:|---:|---|---|---:|---:|")
commands = []
for app, placement, status, wall, load, json_path, command in rows:
    commands.append("- %s, %s: `%s` (exit status %s)" % (app, names.get(placement, placement), command, status))
    if app == "hello":
        seconds = float(wall)
        ok = status == "0"
        print("| hello -n 128 | %s | %.1f | %.0f | %s | %s | %s | %.1f |" % (names.get(placement, placement), seconds,
              targets["hello"], "yes" if ok and seconds <= targets["hello"] else "no", "-" if ok else "FAILED", load,
              seconds))
        continue
    try:
        report = json.load(open(json_path))
    except (OSError, ValueError):
        print("| %s | %s | - | - | no | FAILED (exit %s, no JSON) | %s | %.1f |" % (app, names.get(placement, placement),
              status, load, float(wall)))
        continue
    for run in report["runs"]:
        label = run["label"]
        target = targets.get(label)
        total = run["total_s"]
        print("| %s | %s | %.1f | %s | %s | %s | %s | %.1f |" % (label, names.get(placement, placement), total,
              "%.1f" % target if target else "-", "yes" if target and total <= target and run["verified"] else "no",
              "yes" if run["verified"] else "NO", load, float(wall)))
print()
print("Commands:")
print()
print("\n".join(commands))
PY
echo "ranks-as-threads: wrote $out.md" >&2
