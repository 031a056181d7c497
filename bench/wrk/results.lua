-- wrk (Debian's, a client nobody here wrote) entering Carcassonne results into tallyd the way
-- tally-loadgen's judges do: one thread per connection (-t N -c N), each with a table of its own;
-- the first write is a first entry (If-None-Match: *), every later one a correction of the
-- version the last answer named (If-Match with its ETag, and a reason). Anything but 200/201
-- is counted and reported: the figure is of accepted writes only.
--   wrk -t64 -c64 -d10s -s bench/wrk/results.lua http://HOST:PORT -- TOURNAMENT TOKEN
local counter = 0
local threads = {}

function setup(thread)
  counter = counter + 1
  thread:set("seat", counter)
  table.insert(threads, thread)
end

function init(args)
  tournament = args[1]
  token = args[2]
  version = nil
  refused = 0
  accepted = 0
  path = "/v1/tournaments/" .. tournament .. "/rounds/1/tables/" .. seat .. "/result"
end

function request()
  local score = math.random(0, 119)
  local players = string.format('{"player":"p%d","score":%d},{"player":"p%d","score":%d}',
                                2 * seat - 1, score, 2 * seat, 119 - score)
  local headers = {["Authorization"] = "Bearer " .. token,
                   ["Content-Type"] = "application/json"}
  local body
  if version == nil then
    headers["If-None-Match"] = "*"
    body = '{"players":[' .. players .. ']}'
  else
    headers["If-Match"] = '"' .. version .. '"'
    body = '{"players":[' .. players .. '],"reason":"load test correction"}'
  end
  return wrk.format("PUT", path, headers, body)
end

function response(status, headers, body)
  if status == 200 or status == 201 then
    accepted = accepted + 1
    local etag = headers["ETag"] or headers["etag"] or headers["Etag"]
    version = string.match(etag, '"(%d+)"')
  else
    refused = refused + 1
  end
end

function done(summary, latency, requests)
  local accepted_total, refused_total = 0, 0
  for _, thread in ipairs(threads) do
    accepted_total = accepted_total + thread:get("accepted")
    refused_total = refused_total + thread:get("refused")
  end
  -- The members tally-loadgen's JSON has, so that bench/peers/report.py reads both alike.
  io.write(string.format('WRK_JSON {"writers":%d,"writes":%d,"refused":%d,"seconds":%.3f,' ..
                         '"writes_per_second":%.1f,"write_ms":{"p50":%.3f,"p99":%.3f}}\n',
                         #threads, accepted_total, refused_total, summary.duration / 1e6,
                         accepted_total / (summary.duration / 1e6),
                         latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
