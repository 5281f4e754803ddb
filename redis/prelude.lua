-- Shared by every script below (prepended when a binding loads them): the
-- clock and one host's pace, as src/crawl/pace.rs computes it.

-- Redis's own clock in ms, the same for every worker of a fleet; a test
-- may pass `now` instead to replay a sequence.
local function clock(given)
  if given ~= nil and given ~= '' then return tonumber(given) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- A fetch lease's value: its fencing token and when it runs out (ms). The
-- key's own PX expiry only cleans up; `until` decides, so that a lease
-- runs out by the same clock that took it, Redis's or the one given.
local function lease_value(token, until_)
  return token .. ' ' .. until_
end

-- {token, until} of the lease at `key`, or nil.
local function load_lease(key)
  local v = redis.call('GET', key)
  if not v then return nil end
  local token, until_ = string.match(v, '^(%S+) (%d+)$')
  if not token then return nil end
  return { token = token, until_ = tonumber(until_) }
end

local MAX_FACTOR = 1024
local MAX_RETRY_AFTER_MS = 24 * 3600 * 1000

-- The pacer options, in the order every pace script takes them.
local function pace_options(argv)
  return {
    floor = tonumber(argv[1]), cap = tonumber(argv[2]),
    limit = math.max(tonumber(argv[3]), 1), timeout = tonumber(argv[4]),
    retain = tonumber(argv[5])
  }
end

-- A host's state; `known` is the delay (ms) the worker last set for the
-- host, or nil: a host Redis holds nothing of (expired, or lost in a
-- restart) starts from it, so that its crawl delay survives.
local function load_pace(key, known)
  local v = redis.call('HMGET', key, 'next', 'last', 'nb', 'delay', 'factor', 'off', 'gen')
  local s = {
    next = tonumber(v[1]) or 0, last = tonumber(v[2]), nb = tonumber(v[3]) or 0,
    delay = tonumber(v[4]) or 0, factor = tonumber(v[5]) or 1, off = v[6] == '1',
    gen = tonumber(v[7]) or 0
  }
  if not v[7] and known ~= nil and known ~= '' then s.delay = tonumber(known) end
  return s
end

local function gap(s, o)
  local base = math.max(o.floor, s.delay)
  return math.min(base * math.max(s.factor, 1), math.max(o.cap, base))
end

local function earliest(s, o)
  local after_last = 0
  if s.last ~= nil then after_last = s.last + gap(s, o) end
  return math.max(after_last, s.nb)
end

local function reschedule(s, o)
  s.gen = s.gen + 1
  s.next = earliest(s, o)
end

-- Writes the state back. It lives while it holds anything back (a slot
-- ahead, a gap, a Retry-After, a request in flight) and `retain` ms more,
-- so that a host's crawl delay outlives a pause; a switched-off host
-- lives until switched on.
local function save_pace(key, flight, s, o, now)
  local fields = { 'next', s.next, 'nb', s.nb, 'delay', s.delay, 'factor', s.factor,
    'off', s.off and '1' or '0', 'gen', s.gen }
  if s.last ~= nil then
    fields[#fields + 1] = 'last'
    fields[#fields + 1] = s.last
  end
  redis.call('HSET', key, unpack(fields))
  if s.off then
    redis.call('PERSIST', key)
    redis.call('PERSIST', flight)
    return
  end
  local until_ = math.max(s.next, earliest(s, o), now)
  local last_flight = redis.call('ZRANGE', flight, -1, -1, 'WITHSCORES')
  if last_flight[2] ~= nil then until_ = math.max(until_, tonumber(last_flight[2])) end
  redis.call('PEXPIREAT', key, until_ + o.retain)
  redis.call('PEXPIREAT', flight, until_ + o.retain)
end
