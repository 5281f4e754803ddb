-- Stores a copy fetched under the lease whose fencing token is given,
-- only while that lease is the current one: a worker whose lease ran out
-- (and was taken again, or not) cannot overwrite a newer copy.
-- KEYS: copy, lease. ARGV: token, data (Entry::encode), due (ms),
-- keep (ms the copy lives). Returns the new version (the token), or ''
-- when refused.
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return '' end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'data', ARGV[2], 'due', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('DEL', KEYS[2])
return ARGV[1]
