-- How a request ended (HostPace::record): frees the oldest in-flight
-- place; a 429 or 5xx doubles the gap (capped), holds every start until
-- the Retry-After and a gap after now, and voids the slots handed out;
-- any other answer halves the backoff.
-- KEYS: pace, flight. ARGV: the pace options (5), now (or ''), status
-- (-1: no response), Retry-After in ms (-1: none), and optionally what
-- the worker knew of the host (see parse_known). Returns the gap, or
-- {gap} and the state when the worker passed it in full.
local o = pace_options(ARGV)
local now = clock(ARGV[6])
local status, retry_after = tonumber(ARGV[7]), math.floor(tonumber(ARGV[8]))
local s = load_pace(KEYS[1], ARGV[9], now, o)
if status == 429 or (status >= 500 and status <= 599) then
  s.factor = math.min(s.factor * 2, MAX_FACTOR)
  if retry_after >= 0 then
    s.nb = math.max(s.nb, now + math.min(retry_after, MAX_RETRY_AFTER_MS))
  end
  s.last = math.max(s.last or now, now)
  reschedule(s, o)
elseif status >= 0 then
  s.factor = math.max(math.floor(s.factor / 2), 1)
end
save_pace(KEYS[1], KEYS[2], s, o, now)
-- Last: the pop may empty the key, which the script must not touch again.
redis.call('ZPOPMIN', KEYS[2])
if not s.answer_state then return gap(s, o) end
return with_state({ gap(s, o) }, s)
