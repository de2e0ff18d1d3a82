-- Loaded by bench/run/drivers/wrk.js: sets the method and body (wrk has no flags for them), sends BENCH_PIPELINING
-- requests per write, counts responses by status (wrk itself only counts status >= 400, and counts them in its
-- request total), and prints the numbers the bench needs on one machine-readable line, including p99.9, which wrk's
-- own --latency table does not show. For a mix (BENCH_SEQUENCE set) it goes round a fixed cycle of requests and
-- counts those it sent per route. A body with {{unique}} in it gets a fresh value there on every request, as
-- bench/run/unique-values.js gives one: the run's tag, this thread's number and a count.
wrk.method = os.getenv("BENCH_METHOD") or "GET"
-- a body too long for the environment comes in a file
local function read_file(path)
  local file = assert(io.open(path, "rb"))
  local text = file:read("*a")
  file:close()
  return text
end
local body_file = os.getenv("BENCH_BODY_FILE")
wrk.body = body_file and read_file(body_file) or os.getenv("BENCH_BODY")
local unique_tag = os.getenv("BENCH_UNIQUE_TAG") or ""
local UNIQUE_PLACEHOLDER = "{{unique}}"
local unique_count = 0

local function has_unique(body)
  return body ~= nil and body:find(UNIQUE_PLACEHOLDER, 1, true) ~= nil
end

local function fill_unique(body)
  return (body:gsub("{{unique}}", function()
    unique_count = unique_count + 1
    return unique_tag .. (thread_number or 1) .. string.format("%x", unique_count)
  end))
end
local pipelining = tonumber(os.getenv("BENCH_PIPELINING") or "1")
-- every BENCH_CLOSE_EVERY-th request asks the server to close its connection (wrk then opens another); the count is
-- the thread's, so its connections average that many requests each
local close_every = tonumber(os.getenv("BENCH_CLOSE_EVERY") or "0")
-- paced: each connection waits a random time around 1 / BENCH_CONNECTION_RATE seconds before each request
local connection_rate = tonumber(os.getenv("BENCH_CONNECTION_RATE") or "0")
-- the cycle as comma-separated 1-based indices into the requests BENCH_REQUEST_<i>_ROUTE, _METHOD, _PATH,
-- _HEADERS ("name: value" lines) and _BODY describe
local sequence_text = os.getenv("BENCH_SEQUENCE")

-- setup() and done() run in the main script state, each thread in its own: the threads are kept to read their counts.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_number", #threads)
end

-- fresh[i]: the parts of a request whose body is filled anew each time it is sent
local routes, formatted, fresh, sequence, position = {}, {}, {}, {}, 0

local function request_env(i, field)
  return os.getenv("BENCH_REQUEST_" .. i .. "_" .. field)
end

-- a form of bytes (a file that is not text) comes as hex, since the environment holds text
local function request_body(i)
  local hex = request_env(i, "BODY_HEX")
  if not hex then return request_env(i, "BODY") end
  return (hex:gsub("%x%x", function(pair) return string.char(tonumber(pair, 16)) end))
end

-- After wrk.init has set the Host header, which every request of a mix needs too.
function init(args)
  statuses = {}
  closed = { connections = 0 }
  sent_by_route = {}
  if not sequence_text then
    if not has_unique(wrk.body) then pipelined = string.rep(wrk.format(), pipelining) end
    if close_every > 0 then
      local headers = { Connection = "close" }
      for name, value in pairs(wrk.headers) do headers[name] = value end
      kept, closing, sent = wrk.format(), wrk.format(nil, nil, headers), 0
    end
    if connection_rate > 0 then math.randomseed(thread_number or 1) end
    return
  end
  for index in sequence_text:gmatch("%d+") do
    table.insert(sequence, tonumber(index))
  end
  local i = 1
  while request_env(i, "ROUTE") do
    local headers = {}
    for name, value in pairs(wrk.headers) do headers[name] = value end
    for name, value in (request_env(i, "HEADERS") or ""):gmatch("([^:\n]+): ([^\n]*)") do headers[name] = value end
    routes[i] = request_env(i, "ROUTE")
    local method, path, body = request_env(i, "METHOD"), request_env(i, "PATH"), request_body(i)
    if has_unique(body) then
      fresh[i] = { method = method, path = path, headers = headers, body = body }
    else
      formatted[i] = wrk.format(method, path, headers, body)
    end
    sent_by_route[routes[i]] = 0
    i = i + 1
  end
end

local function next_in_mix()
  position = position % #sequence + 1
  local i = sequence[position]
  sent_by_route[routes[i]] = sent_by_route[routes[i]] + 1
  local parts = fresh[i]
  if parts then return wrk.format(parts.method, parts.path, parts.headers, fill_unique(parts.body)) end
  return formatted[i]
end

if close_every > 0 then
  function request()
    sent = sent + 1
    if sent % close_every == 0 then return closing end
    return kept
  end
elseif sequence_text then
  function request()
    if pipelining == 1 then return next_in_mix() end
    local batch = {}
    for _ = 1, pipelining do table.insert(batch, next_in_mix()) end
    return table.concat(batch)
  end
elseif has_unique(wrk.body) then
  function request()
    local batch = {}
    for _ = 1, pipelining do table.insert(batch, wrk.format(nil, nil, nil, fill_unique(wrk.body))) end
    return table.concat(batch)
  end
elseif pipelining > 1 then
  -- wrk counts the requests in what request() returns and expects as many responses before it writes again
  function request()
    return pipelined
  end
end

if connection_rate > 0 then
  -- uniform over twice the mean wait: the connections drift apart instead of sending in waves
  local mean_ms = 1000 / connection_rate
  function delay()
    return math.random(0, math.floor(2 * mean_ms))
  end
end

-- wrk opens a new connection for each one the server closes: counted, so a run can say how many it opened
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  local connection = headers["Connection"] or headers["connection"]
  if connection and connection:lower() == "close" then closed.connections = closed.connections + 1 end
end

-- Each thread's counts of one kind, summed, as the members of a JSON object.
local function summed(name, format_key)
  local totals = {}
  for _, thread in ipairs(threads) do
    for key, count in pairs(thread:get(name)) do
      totals[key] = (totals[key] or 0) + count
    end
  end
  local fields = {}
  for key, count in pairs(totals) do
    table.insert(fields, string.format(format_key .. ':%d', key, count))
  end
  return table.concat(fields, ",")
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"durationUs":%d,"requests":%d,"bytes":%d,"statuses":{%s},"sentByRoute":{%s},"closed":{%s},' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latencyUs":{"p50":%d,"p90":%d,"p99":%d,"p999":%d,"mean":%.2f,"max":%d}}\n',
    summary.duration, summary.requests, summary.bytes, summed("statuses", '"%d"'), summed("sent_by_route", '"%s"'),
    summed("closed", '"%s"'),
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    latency.mean, latency.max))
end
