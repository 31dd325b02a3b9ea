#!/usr/bin/env bash
# Where a round trip's time goes, one direction at a time (org.am2j.perf.OneWayPhases): RUNS runs (default 3) of
# ROUNDS round trips (default 2,000,000) between two threads of one JVM confined to two CPUs, over shm (or $1:
# shm|inproc); prints each run's medians of request (a-b), reply call (b-c), reply delivery (c-d) and round trip
# (a-d), in ns, with the machine state.
# Usage: [RUNS=N] [ROUNDS=N] [CPUS=0,1] perf/scripts/one-way-phases.sh [shm|inproc]
set -euo pipefail
root="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)"
transport="${1:-shm}"
runs="${RUNS:-3}"
rounds="${ROUNDS:-2000000}"
cpus="${CPUS:-0,1}"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
"$root/bin/am2j" help > /dev/null # builds perf/target/lib when it is missing or stale
echo "one-way-phases: $(date -u +%Y-%m-%dT%H:%MZ) git $(git -C "$root" rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg), $("$java" -version 2>&1 | head -1), CPUs $cpus, $rounds round trips"
for run in $(seq 1 "$runs"); do
    taskset -c "$cpus" "$java" --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
        --enable-native-access=ALL-UNNAMED -cp "$root/perf/target/lib/*" org.am2j.perf.OneWayPhases "$transport" "$rounds"
done
