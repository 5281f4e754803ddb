-- Switches a host off (1 → 0) or back on (HostPace::set_enabled).
-- KEYS: pace, flight. ARGV: the pace options (5), now (or ''), 1 or 0,
-- and optionally the delay the worker last set for the host (see
-- load_pace).
local o = pace_options(ARGV)
local now = clock(ARGV[6])
local enabled = ARGV[7] == '1'
local s = load_pace(KEYS[1], ARGV[8])
if s.off == enabled then
  s.off = not enabled
  reschedule(s, o)
end
save_pace(KEYS[1], KEYS[2], s, o, now)
return enabled and 1 or 0
