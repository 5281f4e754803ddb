-- Shared by every script below (prepended when a binding loads them): the
-- clock and one host's pace, as src/crawl/pace.rs computes it.

-- Redis's own clock in ms, the same for every worker of a fleet; a test
-- may pass `now` instead to replay a sequence.
local function clock(given)
  if given ~= nil and given ~= '' then return math.floor(tonumber(given)) end
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
-- Times, delays and generations are whole ms or counts below 2^53, where
-- a Lua number is exact.
local MAX_SOUND = 2 ^ 53

-- The pacer options, in the order every pace script takes them.
local function pace_options(argv)
  return {
    floor = tonumber(argv[1]), cap = tonumber(argv[2]),
    limit = math.max(tonumber(argv[3]), 1), timeout = tonumber(argv[4]),
    retain = tonumber(argv[5])
  }
end

-- A stored value a pace can trust, in whole ms or counts: a number in
-- [0, 2^53], a fraction rounded down. NaN, infinities, negatives and text
-- are not (nil).
local function sound(v)
  local n = tonumber(v)
  if n == nil or n ~= n or n < 0 or n > MAX_SOUND then return nil end
  return math.floor(n)
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

-- A new name for a host's state, from Redis's clock: a worker whose
-- knowledge names another one knows of a state Redis has since lost.
local function new_epoch()
  local t = redis.call('TIME')
  return t[1] .. '.' .. t[2]
end

-- What a worker knew of a host: the state a pace script last answered it
-- (with_state below), packed by the core as 'epoch next last nb delay
-- factor off gen' (last '-' for none), or '-' when it knows nothing yet
-- but wants the state answered. A bare number is the delay alone, as a
-- worker of an older version passes it.
local function parse_known(arg)
  if arg == nil or arg == '' or arg == '-' then return nil end
  local delay = sound(arg)
  if delay ~= nil then return { delay = delay } end
  local e, n, l, nb, d, f, off, g =
    string.match(arg, '^(%S+) (%S+) (%S+) (%S+) (%S+) (%S+) ([01]) (%S+)$')
  if e == nil then return nil end
  local k = { epoch = e, next = sound(n), last = sound(l), nb = sound(nb), delay = sound(d),
    factor = sound(f), off = off == '1', gen = sound(g), full = true }
  if not (k.next and k.nb and k.delay and k.factor and k.gen) then return nil end
  return k
end

-- A host Redis holds nothing of, that the worker knew (Redis restarted
-- empty, or the state expired): its state comes back from the worker,
-- strictest first, as if a request had just started (one may have: no
-- worker can tell), and every slot handed out before is void.
local function restore(s, k, now, o)
  s.delay = k.delay
  if not k.full then return end
  s.nb, s.factor, s.off, s.gen = k.nb, math.max(k.factor, 1), k.off, k.gen + 1
  s.last = math.max(k.last or 0, now)
  s.next = math.max(k.next, earliest(s, o))
end

-- A worker that knew the host under an older epoch adds what it knew,
-- only ever slowing the pace: a Retry-After, a backoff, a later start, a
-- slower delay or the kill switch that another worker restored without.
-- A delay or switch set since the restore is a newer decision and stays.
local function merge(s, k, o)
  local before = table.concat({ s.nb, s.factor, s.delay, tostring(s.off), s.last or -1 }, ' ')
  s.nb = math.max(s.nb, k.nb)
  s.factor = math.max(s.factor, k.factor)
  if not string.find(s.set, 'd', 1, true) then s.delay = math.max(s.delay, k.delay) end
  if k.off and not string.find(s.set, 'e', 1, true) then s.off = true end
  if k.last ~= nil then s.last = math.max(s.last or 0, k.last) end
  if table.concat({ s.nb, s.factor, s.delay, tostring(s.off), s.last or -1 }, ' ') ~= before then
    s.gen = math.max(s.gen, k.gen) + 1
    s.next = math.max(s.next, earliest(s, o))
  end
end

-- A stored state with a field no pace can trust (a damaged or hand-edited
-- hash): the strictest safe state instead of a guess — a full backoff
-- from now, a delay that was unreadable taken from what the worker knew
-- (else the backoff cap), switched off if its switch was, and every slot
-- handed out void.
local function repair(s, known, now, o)
  s.delay = s.delay or math.max(known and known.delay or 0, o.cap)
  s.factor = MAX_FACTOR
  s.nb = math.max(s.nb or 0, now)
  s.last = math.max(s.last or now, now)
  s.gen = (s.gen or 0) + 1
  s.next = math.max(s.next or 0, earliest(s, o))
end

-- A host's state at `now`, from Redis, or else from what the worker knew
-- (`known_arg`, see parse_known): a host Redis holds nothing of starts
-- from it, so that its pace survives a restart.
local function load_pace(key, known_arg, now, o)
  local known = parse_known(known_arg)
  local v = redis.call('HMGET', key, 'next', 'last', 'nb', 'delay', 'factor', 'off', 'gen', 'epoch', 'set')
  local s
  if not (v[1] or v[2] or v[3] or v[4] or v[5] or v[6] or v[7]) then
    s = { next = 0, nb = 0, delay = 0, factor = 1, off = false, gen = 0, epoch = new_epoch(), set = '' }
    if known ~= nil then restore(s, known, now, o) end
  else
    s = { next = sound(v[1]), last = sound(v[2]), nb = sound(v[3]), delay = sound(v[4]),
      factor = sound(v[5]), off = v[6] ~= '0', gen = sound(v[7]), epoch = v[8] or new_epoch(),
      set = v[9] or '' }
    if (v[2] and not s.last) or not (s.next and s.nb and s.delay and s.factor and s.gen)
        or (v[6] ~= '0' and v[6] ~= '1') then
      repair(s, known, now, o)
    elseif known ~= nil and known.full and known.epoch ~= s.epoch then
      merge(s, known, o)
    end
  end
  -- A factor of 0 (a state made by zero-filling) paces as 1.
  s.factor = math.max(s.factor, 1)
  s.answer_state = known_arg == '-' or (known ~= nil and known.full == true)
  return s
end

-- The state as a worker keeps it for parse_known, appended to a pace
-- script's answer when the worker passed its knowledge in that form (or
-- '-').
local function with_state(answer, s)
  if not s.answer_state then return answer end
  local state = { s.epoch, s.next, s.last or -1, s.nb, s.delay, s.factor, s.off and 1 or 0, s.gen }
  for _, v in ipairs(state) do answer[#answer + 1] = v end
  return answer
end

-- Writes the state back. It lives while it holds anything back (a slot
-- ahead, a gap, a Retry-After, a request in flight) and `retain` ms more,
-- so that a host's crawl delay outlives a pause; a switched-off host
-- lives until switched on.
local function save_pace(key, flight, s, o, now)
  local fields = { 'next', s.next, 'nb', s.nb, 'delay', s.delay, 'factor', s.factor,
    'off', s.off and '1' or '0', 'gen', s.gen, 'epoch', s.epoch, 'set', s.set }
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

-- Drops the in-flight places whose time ran out by `now`. Run last: a
-- key a script empties is gone, and in a cluster slot being migrated a
-- script may not touch a key that is gone ("non local key").
local function forget_flown(flight, now)
  redis.call('ZREMRANGEBYSCORE', flight, '-inf', now)
end
