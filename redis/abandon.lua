-- Gives a fetch lease back unstored, if it is still the current one.
-- KEYS: lease. ARGV: token. Returns 1 when given back.
local lease = load_lease(KEYS[1])
if not lease or lease.token ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
