-- Sets a host's own gap in ms, from its crawl delay or request rate
-- (HostPace::set_delay): a slower pace voids the slots handed out.
-- KEYS: pace, flight. ARGV: the pace options (5), now (or ''), the delay.
local o = pace_options(ARGV)
local now = clock(ARGV[6])
local delay = tonumber(ARGV[7])
local s = load_pace(KEYS[1])
local slower = delay > s.delay
s.delay = delay
if slower then reschedule(s, o) end
save_pace(KEYS[1], KEYS[2], s, o, now)
return gap(s, o)
