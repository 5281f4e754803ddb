-- A host's pace as it stands: {gap, in flight at now, next slot, last
-- start (-1: none), not before, delay, factor, switched off (1/0),
-- generation}, then the state when the worker passed it in full (see
-- with_state). KEYS: pace, flight. ARGV: the pace options (5), now (or
-- ''), and optionally what the worker knew of the host (see parse_known).
local o = pace_options(ARGV)
local now = clock(ARGV[6])
local s = load_pace(KEYS[1], ARGV[7], now, o)
return with_state({ gap(s, o), redis.call('ZCOUNT', KEYS[2], '(' .. now, '+inf'), s.next, s.last or -1,
  s.nb, s.delay, s.factor, s.off and 1 or 0, s.gen }, s)
