-- Reserves the next start slot for a host (HostPace::reserve).
-- KEYS: pace, flight. ARGV: floor, cap, max in flight, in-flight timeout,
-- retain, now (or ''), and optionally what the worker knew of the host
-- (see parse_known).
-- Returns {start, generation, now}, then the state when the worker passed
-- it in full (see with_state); start -1 while the host is switched off.
local o = pace_options(ARGV)
local now = clock(ARGV[6])
local s = load_pace(KEYS[1], ARGV[7], now, o)
if s.off then
  save_pace(KEYS[1], KEYS[2], s, o, now)
  return with_state({ -1, s.gen, now }, s)
end
local start = math.max(s.next, now, earliest(s, o))
s.next = start + gap(s, o)
save_pace(KEYS[1], KEYS[2], s, o, now)
return with_state({ start, s.gen, now }, s)
