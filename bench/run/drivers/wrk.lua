-- Loaded by bench/run/drivers/wrk.js: sets the method and body (wrk has no flags for them), sends BENCH_PIPELINING
-- requests per write, counts responses by status (wrk itself only counts status >= 400, and counts them in its
-- request total), and prints the numbers the bench needs on one machine-readable line, including p99.9, which wrk's
-- own --latency table does not show.
wrk.method = os.getenv("BENCH_METHOD") or "GET"
wrk.body = os.getenv("BENCH_BODY")
local pipelining = tonumber(os.getenv("BENCH_PIPELINING") or "1")

-- setup() and done() run in the main script state, each thread in its own: the threads are kept to read their counts.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
  pipelined = string.rep(wrk.format(), pipelining)
end

if pipelining > 1 then
  -- wrk counts the requests in what request() returns and expects as many responses before it writes again
  function request()
    return pipelined
  end
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local counts = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      counts[status] = (counts[status] or 0) + count
    end
  end
  local fields = {}
  for status, count in pairs(counts) do
    table.insert(fields, string.format('"%d":%d', status, count))
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"durationUs":%d,"requests":%d,"bytes":%d,"statuses":{%s},' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latencyUs":{"p50":%d,"p90":%d,"p99":%d,"p999":%d,"mean":%.2f,"max":%d}}\n',
    summary.duration, summary.requests, summary.bytes, table.concat(fields, ","),
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    latency.mean, latency.max))
end
