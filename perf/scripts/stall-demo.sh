#!/usr/bin/env bash
# A stalled peer, shown with a real job: a 2-node `bin/am2j run` job of org.am2j.net.StallFloodMain (both ranks
# flood each other with requests, each with a unique id, replied with the same id) in which rank 1 is stopped
# with SIGSTOP for STALL seconds (default 10) mid-flood and then resumed with SIGCONT: what a long collection
# pause, a VM migration or swapping does to a JVM. It runs the job once with the default timeouts and once with
# am2j.net.timeoutMs=2000 (override the list with TIMEOUTS="default 2000 ..."), and prints for each run:
#   - rank 0's `net nic outstanding` gauge from `bin/am2j stat` while rank 1 stands still (messages to a silent
#     peer stay outstanding; nothing is returned on a guess);
#   - both ranks' counts: sent, replied, returned (by status), the peer's requests run here, replies returned
#     here, and each rank's verdict after exchanging the per-id records: every request replied or returned (or its
#     reply returned to the replier), none both, none run twice;
#   - both ranks' give-up counters (NIC).
# NIC=inline|thread (default inline) picks the NIC mode. Exits non-zero when a run fails its accounting.
# Usage: [STALL=10] [NIC=inline] [TIMEOUTS="default 2000"] perf/scripts/stall-demo.sh
set -euo pipefail
root="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)"
stall="${STALL:-10}"
nic="${NIC:-inline}"
read -r -a timeouts <<< "${TIMEOUTS:-default 2000}"
"$root/bin/am2j" stat --help > /dev/null # builds perf/target/lib when it is missing or stale
main_class="$root/net-protocol/target/test-classes/org/am2j/net/StallFloodMain.class"
main_source="$root/net-protocol/src/test/java/org/am2j/net/StallFloodMain.java"
if [[ ! -f "$main_class" || "$main_source" -nt "$main_class" ]]; then
    echo "stall-demo: compiling the test classes (mvn -B -q -DskipTests package)" >&2
    (cd "$root" && mvn -B -q -DskipTests package)
fi
cp="$root/perf/target/lib/*:$root/net-protocol/target/test-classes:$root/shm-protocol/target/test-classes"

work=""
launcher=""
stopped=""
cleanup() {
    # A stopped rank is resumed first, so that the launcher's clean-up can end it like any process.
    if [[ -n "$stopped" ]]; then kill -CONT "$stopped" 2> /dev/null || true; fi
    if [[ -n "$launcher" ]] && kill -0 "$launcher" 2> /dev/null; then kill -TERM "$launcher" 2> /dev/null || true; fi
    if [[ -n "$work" ]]; then rm -rf -- "$work"; fi
}
trap cleanup EXIT

wait_for() { # FILE SECONDS
    local deadline=$((SECONDS + $2))
    while [[ ! -f "$1" ]]; do
        if ((SECONDS > deadline)) || ! kill -0 "$launcher" 2> /dev/null; then
            echo "stall-demo: no $1 within $2 s" >&2
            return 1
        fi
        sleep 0.05
    done
}

status=0
for timeout in "${timeouts[@]}"; do
    work="$(mktemp -d)"
    options=()
    label="default timeouts"
    if [[ "$timeout" != default ]]; then
        options=(--jvm-opt "-Dam2j.net.timeoutMs=$timeout")
        label="am2j.net.timeoutMs=$timeout"
    fi
    echo "=== $label, nic $nic, rank 1 stopped for $stall s mid-flood ==="
    "$root/bin/am2j" run -n 2 --nodes 2 --nic "$nic" --timeout $((stall * 3 + 120)) "${options[@]}" --cp "$cp" \
        -- org.am2j.net.StallFloodMain "$work" $((stall * 2 + 60)) > "$work/job.out" 2>&1 &
    launcher=$!
    wait_for "$work/rank-0.flooding" 60 && wait_for "$work/rank-1.flooding" 60
    rank0="$(cat "$work/rank-0.pid")"
    stopped="$(cat "$work/rank-1.pid")"
    kill -STOP "$stopped"
    echo "stall-demo: kill -STOP $stopped (rank 1) at $(date -u +%H:%M:%S)"
    sleep $((stall - 1))
    printf 'stall-demo: rank 0 (pid %s) during the stall: ' "$rank0"
    "$root/bin/am2j" stat --pid "$rank0" --once 2> /dev/null | grep -E 'nic (outstanding|give_ups_sent)' |
        tr -s ' ' | paste -sd ';' - || echo "(no counters)"
    sleep 1
    kill -CONT "$stopped"
    stopped=""
    echo "stall-demo: kill -CONT (rank 1) at $(date -u +%H:%M:%S)"
    sleep 5
    touch "$work/stop"
    job_status=0
    wait "$launcher" || job_status=$?
    launcher=""
    grep -E '(counts|accounting ok|nic):|FAIL|am2j run:' "$work/job.out" || true
    echo "job exit status $job_status"
    if ((job_status != 0)); then
        status=1
        echo "--- job output ---"
        cat "$work/job.out"
    fi
    rm -rf -- "$work"
    work=""
done
exit "$status"
