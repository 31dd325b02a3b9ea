#!/usr/bin/env bash
# Build hsdis-amd64.so from hsdis-capstone.c into DIR (default /tmp/hsdis), for -XX:+PrintAssembly and JMH's perfasm:
#   perf/tools/build-hsdis.sh [DIR]
#   LD_LIBRARY_PATH=/tmp/hsdis bin/am2j jmh CrossCoreBenchmark -p route=shm -prof "perfasm:events=cpu-clock"
# Needs gcc and Capstone's headers (Debian: apt-get install -y libcapstone-dev).
set -euo pipefail
out="${1:-/tmp/hsdis}"
here="$(cd "$(dirname "$0")" && pwd)"
if [[ ! -f /usr/include/capstone/capstone.h ]]; then
    echo "build-hsdis: Capstone's headers are missing (Debian: apt-get install -y libcapstone-dev)" >&2
    exit 2
fi
mkdir -p "$out"
gcc -O2 -shared -fPIC -o "$out/hsdis-amd64.so" "$here/hsdis-capstone.c" -lcapstone
echo "build-hsdis: wrote $out/hsdis-amd64.so"
java_home="${JAVA_HOME:-}"
if [[ -z "$java_home" ]] && command -v java > /dev/null; then
    java_home="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
fi
if [[ -n "$java_home" ]]; then
    for lib in "$java_home"/lib/server/hsdis-amd64.so "$java_home"/lib/server/libhsdis-amd64.so \
               "$java_home"/lib/hsdis-amd64.so "$java_home"/lib/libhsdis-amd64.so; do
        if [[ -e "$lib" ]]; then
            echo "build-hsdis: note: $lib exists and the JVM loads it before LD_LIBRARY_PATH's" >&2
        fi
    done
fi
