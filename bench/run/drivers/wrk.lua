-- Loaded by bench/drivers/wrk.js: sets the method and body (wrk has no flags for them) and prints the numbers the
-- bench needs on one machine-readable line, including p99.9, which wrk's own --latency table does not show.
wrk.method = os.getenv("BENCH_METHOD") or "GET"
wrk.body = os.getenv("BENCH_BODY")

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"durationUs":%d,"requests":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latencyUs":{"p50":%d,"p90":%d,"p99":%d,"p999":%d,"mean":%.2f,"max":%d}}\n',
    summary.duration, summary.requests, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    latency.mean, latency.max))
end
