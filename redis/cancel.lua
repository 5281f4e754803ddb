-- Gives back an unsent slot when it is the last one handed out
-- (HostPace::cancel). KEYS: pace, flight. ARGV: the pace options (5),
-- now (or ''), the slot's start and generation. Returns 1 when given back.
local o = pace_options(ARGV)
local now = clock(ARGV[6])
local start, gen = tonumber(ARGV[7]), tonumber(ARGV[8])
local s = load_pace(KEYS[1])
if s.gen ~= gen or s.next ~= start + gap(s, o) then return 0 end
s.next = start
save_pace(KEYS[1], KEYS[2], s, o, now)
return 1
