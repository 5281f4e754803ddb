-- Reserves the next start slot for a host (HostPace::reserve).
-- KEYS: pace, flight. ARGV: floor, cap, max in flight, in-flight timeout,
-- retain, now (or ''), and optionally the delay the worker last set for
-- the host (see load_pace).
-- Returns {start, generation, now}; start -1 while the host is switched off.
local o = pace_options(ARGV)
local now = clock(ARGV[6])
local s = load_pace(KEYS[1], ARGV[7])
if s.off then return { -1, s.gen, now } end
local start = math.max(s.next, now, earliest(s, o))
s.next = start + gap(s, o)
save_pace(KEYS[1], KEYS[2], s, o, now)
return { start, s.gen, now }
