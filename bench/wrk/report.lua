-- A wrk script for bench/scale-out.ts. With WRK_BODY set it sends POST requests with that JSON
-- body; otherwise wrk's own GET. At the end it prints one line, `WRK_RESULT {json}`, that the
-- bench reads: the requests, the errors (socket errors, and answers with a status >= 400, which
-- wrk counts as `status`) and the latency percentiles in microseconds.
-- No response() callback: defining one makes wrk parse every answer's headers in Lua, which
-- costs CPU the servers need on a 2-core machine.
local body = os.getenv("WRK_BODY")
if body ~= nil and body ~= "" then
  wrk.method = "POST"
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end

-- With WRK_SPREAD_ADDRESSES set, each request comes from another X-Forwarded-For address, as many
-- clients behind a trusted proxy do, so per-address limits do not refuse the load. With
-- WRK_IDEMPOTENCY_KEYS=1 every request carries an Idempotency-Key of its own (a prefix of this run,
-- then a counter), so each is a create, never a replay. Either costs wrk a Lua call per request,
-- which the requests without them do not pay.
local spread = os.getenv("WRK_SPREAD_ADDRESSES") == "1"
local keyed = os.getenv("WRK_IDEMPOTENCY_KEYS") == "1"
if spread or keyed then
  math.randomseed(os.time())
  local prefix = string.format("bench-%d-%d-", os.time(), math.random(1, 1000000000))
  local counter = 0
  function request()
    counter = counter + 1
    if spread then
      wrk.headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.floor(counter / 65536) % 256, math.floor(counter / 256) % 256, counter % 256)
    end
    if keyed then
      wrk.headers["Idempotency-Key"] = prefix .. counter
    end
    return wrk.format()
  end
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%.0f,"durationUs":%.0f,"connect":%.0f,"read":%.0f,"write":%.0f,"status":%.0f,"timeout":%.0f,"p50Us":%.0f,"p99Us":%.0f,"maxUs":%.0f}\n',
    summary.requests, summary.duration, errors.connect, errors.read, errors.write, errors.status, errors.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
