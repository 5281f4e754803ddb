-- Gives a fetch lease back unstored, if it is still the current one.
-- KEYS: lease. ARGV: token. Returns 1 when given back.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
