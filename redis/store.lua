-- Stores a copy fetched under the lease whose fencing token is given,
-- only while that lease is the current one: a worker whose lease ran out
-- (and was taken again, or not) cannot overwrite a newer copy.
-- KEYS: copy, lease. ARGV: token, data (Entry::encode), due (ms),
-- keep (ms the copy lives), now (or ''). Returns the new version (the
-- token), or '' when refused.
local lease = load_lease(KEYS[2])
if not lease or lease.token ~= ARGV[1] or clock(ARGV[5]) >= lease.until_ then return '' end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'data', ARGV[2], 'due', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('DEL', KEYS[2])
return ARGV[1]
