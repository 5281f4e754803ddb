-- Switches a host off (1 → 0) or back on (HostPace::set_enabled).
-- KEYS: pace, flight. ARGV: the pace options (5), now (or ''), 1 or 0,
-- and optionally what the worker knew of the host (see parse_known).
-- Returns 1 or 0 as set, or {1 or 0} and the state when the worker
-- passed it in full.
local o = pace_options(ARGV)
local now = clock(ARGV[6])
local enabled = ARGV[7] == '1'
local s = load_pace(KEYS[1], ARGV[8], now, o)
if s.off == enabled then
  s.off = not enabled
  reschedule(s, o)
end
if not string.find(s.set, 'e', 1, true) then s.set = s.set .. 'e' end
save_pace(KEYS[1], KEYS[2], s, o, now)
if not s.answer_state then return enabled and 1 or 0 end
return with_state({ enabled and 1 or 0 }, s)
