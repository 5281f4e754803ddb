-- Sets a host's own gap in ms, from its crawl delay or request rate
-- (HostPace::set_delay): a slower pace voids the slots handed out.
-- KEYS: pace, flight. ARGV: the pace options (5), now (or ''), the delay,
-- and optionally what the worker knew of the host (see parse_known).
-- Returns the gap, or {gap} and the state when the worker passed it in
-- full.
local o = pace_options(ARGV)
local now = clock(ARGV[6])
local delay = sound(ARGV[7])
if delay == nil then return redis.error_reply('set_delay: the delay must be a whole number of ms, not ' .. tostring(ARGV[7])) end
local s = load_pace(KEYS[1], ARGV[8], now, o)
local slower = delay > s.delay
s.delay = delay
if not string.find(s.set, 'd', 1, true) then s.set = s.set .. 'd' end
if slower then reschedule(s, o) end
save_pace(KEYS[1], KEYS[2], s, o, now)
if not s.answer_state then return gap(s, o) end
return with_state({ gap(s, o) }, s)
