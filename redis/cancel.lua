-- Gives back an unsent slot when it is the last one handed out
-- (HostPace::cancel). KEYS: pace, flight. ARGV: the pace options (5),
-- now (or ''), the slot's start and generation, and optionally what the
-- worker knew of the host (see parse_known). Returns {1 when given back,
-- else 0}, then the state when the worker passed it in full.
local o = pace_options(ARGV)
local now = clock(ARGV[6])
local start, gen = tonumber(ARGV[7]), tonumber(ARGV[8])
local s = load_pace(KEYS[1], ARGV[9], now, o)
local given = 0
if s.gen == gen and s.next == start + gap(s, o) then
  s.next = start
  given = 1
end
save_pace(KEYS[1], KEYS[2], s, o, now)
if not s.answer_state then return given end
return with_state({ given }, s)
