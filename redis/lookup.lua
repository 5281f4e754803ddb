-- One worker's look at an origin's shared copy, taking the fetch lease
-- when a fetch is due and nobody holds it.
-- KEYS: copy (a hash: data, version, due, fence), lease.
-- ARGV: lease ms, now (or ''), the version the worker holds ('': none),
-- and optionally '1' when the worker cannot read the fleet's copy (damaged,
-- or of a newer format): it is then due for this worker, which fetches
-- over it unless another worker holds the lease.
-- Returns {kind, now, version, due, token or ms left, data}:
--   'fresh' — the copy is not due;
--   'fetch' — due, or no copy: this worker holds the lease, under the
--             fencing token given (to pass to store.lua);
--   'wait'  — due, and another worker is fetching: the lease's ms left.
-- data is the copy (Entry::encode) when the worker holds another version,
-- else ''. A version names one store for good (fence and Redis time), so
-- a worker's copy from before a Redis restart is never taken for a newer.
local lease_ms = tonumber(ARGV[1])
local now = clock(ARGV[2])
local held = ARGV[3]
local v = redis.call('HMGET', KEYS[1], 'version', 'due')
local version, due = v[1] or '', tonumber(v[2])
local data = ''
if version ~= '' and version ~= held then data = redis.call('HGET', KEYS[1], 'data') or '' end
if due ~= nil and now < due and ARGV[4] ~= '1' then
  return { 'fresh', now, version, due, '', data }
end
local lease = load_lease(KEYS[2])
if lease and now < lease.until_ then
  return { 'wait', now, version, due or 0, tostring(lease.until_ - now), data }
end
local token = redis.call('HINCRBY', KEYS[1], 'fence', 1) .. '-' .. now
redis.call('SET', KEYS[2], lease_value(token, now + lease_ms), 'PX', lease_ms)
-- A lease never stored leaves only the fence: it goes with the lease.
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], lease_ms) end
return { 'fetch', now, version, due or 0, token, data }
