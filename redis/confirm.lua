-- Whether a slot's request may be sent now (HostPace::confirm).
-- KEYS: pace, flight. ARGV: the pace options (5), now (or ''), the slot's
-- start and generation, a name for the request's in-flight place, and
-- optionally what the worker knew of the host (see parse_known).
-- Returns {answer, start, generation, until, now}, then the state when
-- the worker passed it in full (see with_state): answer 0 go (until:
-- now), 1 wait until, 2 wait until (busy: the in-flight limit), 3
-- switched off (until: now).
local o = pace_options(ARGV)
local now = clock(ARGV[6])
local start, gen = tonumber(ARGV[7]), tonumber(ARGV[8])
local s = load_pace(KEYS[1], ARGV[10], now, o)
if s.off then
  save_pace(KEYS[1], KEYS[2], s, o, now)
  return with_state({ 3, start, gen, now, now }, s)
end
if gen ~= s.gen then
  start = math.max(s.next, now, earliest(s, o))
  s.next = start + gap(s, o)
  gen = s.gen
end
-- The places whose time ran out go last (forget_flown): a script that
-- empties a key must not touch it again.
local answer, until_ = 0, now
local first = math.max(start, earliest(s, o))
if now < first then
  answer, until_ = 1, first
elseif redis.call('ZCOUNT', KEYS[2], '(' .. now, '+inf') >= o.limit then
  answer, until_ = 2, tonumber(redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. now, '+inf',
    'WITHSCORES', 'LIMIT', 0, 1)[2])
else
  s.last = now
  redis.call('ZADD', KEYS[2], now + o.timeout, ARGV[9])
end
save_pace(KEYS[1], KEYS[2], s, o, now)
forget_flown(KEYS[2], now)
return with_state({ answer, start, gen, until_, now }, s)
