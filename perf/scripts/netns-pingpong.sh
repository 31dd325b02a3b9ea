#!/usr/bin/env bash
# The net protocol across a real network path, beside plain UDP across the same path: two network namespaces joined
# by a veth pair with MTU 1500 (192.0.2.1 and 192.0.2.2 of TEST-NET-1, which exist only inside them), one rank JVM
# in each, started as an external launcher would (OMPI_COMM_WORLD_RANK/SIZE, AM2J_BOOTSTRAP), each pinned to a CPU
# of its own with taskset when two are allowed.
#   1. am2j: org.am2j.perf.AmPingPongRank over the net protocol (-Dam2j.transports=inproc,net, AM2J_NET_HOST the
#      rank's veth address): short RTT, o_s and 8 KiB bandwidth, as `bin/am2j pingpong --protocol net` measures them;
#   2. plain UDP: org.am2j.perf.UdpRank, its sockets on the same veth addresses: the 136-byte UDP ping-pong and the
#      8 KiB datagram stream, as the UDP limit of `bin/am2j pingpong` (perf/README.md).
# Both pairs probe the machine's state with a cache line in /dev/shm, which the two namespaces share (only the network
# is split). Writes the Markdown (default perf/results/netns.md) with the command, the machine's state and the
# figures, and beside it the results as JSON (netns.json). No loss is injected: this measures the path.
# Needs root, iproute2 (ip) and python3. Removes its namespaces and files on exit, error or interrupt.
# Usage: [ROUNDS=N] [WARMUP=N] perf/scripts/netns-pingpong.sh [OUTPUT.md]
set -euo pipefail
root="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)"
out="${1:-$root/perf/results/netns.md}"
json="${out%.md}.json"
rounds="${ROUNDS:-100000}"
warmup="${WARMUP:-20000}"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
java="$(command -v "$java")" || { echo "netns-pingpong: no java (set JAVA_HOME or PATH)" >&2; exit 2; }
lib="$root/perf/target/lib"

if [ "$(id -u)" -ne 0 ]; then
    echo "netns-pingpong: needs root to make network namespaces (ip netns add)" >&2
    exit 2
fi
for program in ip python3; do
    command -v "$program" > /dev/null || { echo "netns-pingpong: $program is missing" >&2; exit 2; }
done
"$root/bin/am2j" stat --help > /dev/null 2>&1 || true # builds perf/target/lib when it is missing or stale
[ -d "$lib" ] || { echo "netns-pingpong: no $lib: build with mvn -B -DskipTests package" >&2; exit 1; }

bw_messages=$((rounds / 4))
[ "$bw_messages" -lt 1024 ] && bw_messages=1024
[ "$bw_messages" -gt 65536 ] && bw_messages=65536
os_bursts=$((rounds / 64))
[ "$os_bursts" -lt 1 ] && os_bursts=1
no_probe=9223372036854775807

ns_a="am2jm-$$-a"
ns_b="am2jm-$$-b"
addr_a=192.0.2.1
addr_b=192.0.2.2
work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do
        kill -9 "$pid" 2> /dev/null || true
    done
    ip netns del "$ns_a" 2> /dev/null || true
    ip netns del "$ns_b" 2> /dev/null || true
    rm -f /dev/shm/am2j-netns-$$-*.line
    rm -rf -- "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ip netns add "$ns_a"
ip netns add "$ns_b"
ip link add name veth0 netns "$ns_a" type veth peer name veth0 netns "$ns_b"
for side in a b; do
    ns="ns_$side"; addr="addr_$side"
    ip -n "${!ns}" link set lo up
    ip -n "${!ns}" link set veth0 mtu 1500
    ip -n "${!ns}" addr add "${!addr}/24" dev veth0
    ip -n "${!ns}" link set veth0 up
done

# CPUs: rank 0 on the first this shell may use, rank 1 on the second, as bin/am2j pingpong pins them.
cpus=()
if command -v taskset > /dev/null; then
    mapfile -t cpus < <(python3 -c 'import os; print("\n".join(str(c) for c in sorted(os.sched_getaffinity(0))[:2]))')
fi
pinned=false
[ "${#cpus[@]}" -ge 2 ] && pinned=true

# pair LABEL MAINCLASS ROUTE PORT: run one rank pair, rank 0 in A (it runs the rendezvous), rank 1 in B.
pair() {
    local label="$1" main="$2" route="$3" port="$4"
    local line="/dev/shm/am2j-netns-$$-$label.line"
    head -c 4096 /dev/zero > "$line"
    chmod 600 "$line"
    echo "netns-pingpong: measuring $label" >&2
    local rank ns addr pin
    # the rank program's one argument: its RankConfig as a JSON object
    local config="{\"route\":\"$route\",\"rounds\":$rounds,\"warmup\":$warmup,\"size\":0,\"osBursts\":$os_bursts,"
    config+="\"osWarmupBursts\":$((warmup / 64)),\"bwMessages\":$bw_messages,\"bwRepeats\":5,"
    config+="\"fastestProbeNs\":$no_probe,\"line\":\"$line\",\"out\":\"$work/$label.results\"}"
    pids=()
    for rank in 1 0; do
        if [ "$rank" -eq 0 ]; then ns="$ns_a"; addr="$addr_a"; else ns="$ns_b"; addr="$addr_b"; fi
        pin=()
        $pinned && pin=(taskset -c "${cpus[$rank]}")
        ip netns exec "$ns" env -i OMPI_COMM_WORLD_RANK="$rank" OMPI_COMM_WORLD_SIZE=2 \
            AM2J_BOOTSTRAP="$addr_a:$port" AM2J_NODE_ID="netns-$rank" AM2J_NET_HOST="$addr" \
            timeout 900 "${pin[@]}" "$java" --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
            --enable-native-access=ALL-UNNAMED -Dam2j.transports=inproc,net -cp "$lib/*" "$main" \
            "$config" \
            > "$work/$label.$rank.log" 2>&1 &
        pids+=("$!")
    done
    local status=0
    for pid in "${pids[@]}"; do
        wait "$pid" || status=$?
    done
    pids=()
    rm -f "$line"
    if [ "$status" -ne 0 ] || [ ! -s "$work/$label.results" ]; then
        echo "netns-pingpong: the $label pair failed (status $status)" >&2
        cat "$work/$label.0.log" "$work/$label.1.log" >&2
        exit 1
    fi
}

started="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
others_before="$(pgrep -c -x java || true) java, $(pgrep -c -f 'org.codehaus.plexus.classworlds' || true) maven"
pair am2j org.am2j.perf.AmPingPongRank net 7001
pair udp org.am2j.perf.UdpRank - 7002
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$work" "$out" "$json" "$rounds" "$warmup" "$bw_messages" "$started" "$load_before" "$load_after" \
    "$others_before" "$pinned" "${cpus[*]:-}" "$(git -C "$root" rev-parse --short HEAD)" \
    "$("$java" -version 2>&1 | head -1)" "$(uname -r)" <<'PY'
import json, os, sys
(work, out, json_out, rounds, warmup, bw_messages, started, load_before, load_after, others, pinned, cpus, commit,
 jvm, kernel) = sys.argv[1:16]

def read(label):
    # rank 0's results: one JSON object of strings, numbers as Java wrote them (NaN too)
    values = {}
    for key, value in json.load(open(os.path.join(work, label + ".results"))).items():
        try:
            values[key] = json.loads(value)
        except ValueError:
            values[key] = value
    return values

am, udp = read("am2j"), read("udp")
model = open("/proc/cpuinfo").read().split("model name")[1].split(":")[1].split("\n")[0].strip()
ratio_rtt = am["rtt_p50_ns"] / udp["limit_udp_rtt_p50_ns"]
ratio_bw = am["bw_8k_gbps"] / udp["udp_bw_8k_gbps"]
slow = [k for k, v in list(am.items()) + list(udp.items()) if k.endswith("slow_epoch") and v is True]
machine = {"cpus": os.cpu_count(), "model": model, "kernel": kernel, "jvm": jvm, "load_before": load_before,
           "load_after": load_after, "other_processes_at_start": others, "pinned": pinned == "true",
           "pinned_cpus": cpus}
json.dump({"benchmark": "netns-pingpong", "command": "perf/scripts/netns-pingpong.sh", "timestamp": started,
           "git": commit, "rounds": int(rounds), "warmup": int(warmup), "path": "veth pair, MTU 1500, 192.0.2.1 <-> 192.0.2.2",
           "machine": machine, "am2j_net": am, "udp": udp, "ratio_p50_udp": ratio_rtt, "bw_ratio_udp": ratio_bw},
          open(json_out, "w"), indent=1, sort_keys=True)

def ns(v):
    return "%d" % v

with open(out, "w") as f:
    w = lambda s="": f.write(s + "\n")
    w("# The net protocol across a veth pair, beside plain UDP")
    w()
    w("Command: `perf/scripts/netns-pingpong.sh` (ROUNDS=%s, WARMUP=%s; %s, git %s, %s)." % (
        rounds, warmup, started, commit, jvm))
    w()
    w("Machine: %d CPUs (%s), kernel %s; load average %s before and %s after; at the start %s processes were "
      "running besides this measurement; ranks %s." % (os.cpu_count(), model, kernel, load_before, load_after,
      others, "pinned to CPUs " + cpus if pinned == "true" else "not pinned"))
    w()
    w("Path: two network namespaces joined by a veth pair with MTU 1500 (192.0.2.1 and 192.0.2.2 of TEST-NET-1, "
      "which exist only inside them), one rank JVM in each, started with `OMPI_COMM_WORLD_RANK`/`SIZE` and "
      "`AM2J_BOOTSTRAP`; no loss. The am2j pair is `AmPingPongRank` over the net protocol alone "
      "(`-Dam2j.transports=inproc,net`, `AM2J_NET_HOST` the rank's veth address), the UDP pair `UdpRank` with its "
      "sockets on the same addresses; each measurement as `bin/am2j pingpong --protocol net` takes it "
      "(perf/README.md), %s round trips after a warm-up of at least %s, 5 bandwidth runs of %s messages or "
      "datagrams of 8 KiB. An 8 KiB message crosses the 1500-byte MTU in fragments: the net protocol's own "
      "(datagrams of at most 1472 bytes); a plain 8 KiB UDP datagram is fragmented by IP." % (
          rounds, warmup, bw_messages))
    w()
    w("| | am2j net | plain UDP | am2j / UDP |")
    w("|---|---|---|---|")
    w("| RTT p50 (ns) | %s | %s | %.2f |" % (ns(am["rtt_p50_ns"]), ns(udp["limit_udp_rtt_p50_ns"]), ratio_rtt))
    w("| RTT p99 (ns) | %s | %s | |" % (ns(am["rtt_p99_ns"]), ns(udp["limit_udp_rtt_p99_ns"])))
    w("| RTT min (ns) | %s | %s | |" % (ns(am["rtt_min_ns"]), ns(udp["limit_udp_rtt_min_ns"])))
    w("| 8 KiB bandwidth, GB/s: median [range] of 5 | %.3f [%.3f-%.3f] | %.3f [%.3f-%.3f] | %.2f |" % (
        am["bw_8k_gbps"], am["bw_8k_gbps_min"], am["bw_8k_gbps_max"], udp["udp_bw_8k_gbps"],
        udp["udp_bw_8k_gbps_min"], udp["udp_bw_8k_gbps_max"], ratio_bw))
    w("| o_s, mean (ns) | %s | | |" % ns(am["os_ns"]))
    w()
    w("UDP: %s pings resent after 100 ms; %.4f of the stream's datagrams lost (UDP drops what a receiver has no "
      "room for; the bandwidth counts what arrived). am2j: %s queue-full back-offs in the bandwidth runs." % (
        udp.get("limit_udp_rtt_resends", "?"), udp.get("udp_loss", float("nan")),
        am.get("bw_8k_queue_full_backoffs", "?")))
    w()
    w("Slow epochs flagged by the machine-state probe: %s." % (", ".join(slow) if slow else "none"))
    w()
    w("The figures of one run on a shared 2-CPU machine: read the ratios, measured in the same run, rather than the "
      "absolute times. The results of both pairs are in `%s`." % os.path.basename(json_out))
PY
echo "wrote $out and $json" >&2
