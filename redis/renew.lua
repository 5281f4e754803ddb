-- Extends a fetch lease its holder still holds, by lease ms from now: a
-- robots.txt slower than the lease stays one fetch for the whole fleet.
-- KEYS: copy, lease. ARGV: token, lease ms, now (or ''). Returns the
-- lease's new end (ms), or 0 when it ran out or is another's.
local lease_ms = tonumber(ARGV[2])
local now = clock(ARGV[3])
local lease = load_lease(KEYS[2])
if not lease or lease.token ~= ARGV[1] or now >= lease.until_ then return 0 end
redis.call('SET', KEYS[2], lease_value(ARGV[1], now + lease_ms), 'PX', lease_ms)
-- A copy that is only the fence lives as long as the lease.
local ttl = redis.call('PTTL', KEYS[1])
if ttl >= 0 and ttl < lease_ms then redis.call('PEXPIRE', KEYS[1], lease_ms) end
return now + lease_ms
