/**
 * Settle or release a reservation, atomically and idempotently: only a live record whose lease
 * has not run out is ended, and it leaves a tombstone so a late duplicate is a no-op. ARGV:
 * prefix, now, reservation id, what was used as JSON (counter → amount), 'settle' | 'release'.
 * Replies 1 when it ended the reservation, 0 when there was nothing to end.
 */
import { PRELUDE } from './prelude.js';

export const END_SCRIPT = `${PRELUDE}
local id = ARGV[3]
local actual = cjson.decode(ARGV[4])
local releasing = ARGV[5] == 'release'
local rk = res_key(id)
local record = redis.call('HMGET', rk, 'state', 'lease', 'holds')
if record[1] ~= 'live' then return 0 end
if tonumber(record[2]) <= now then
  -- The lease ran out: its count and spend entries are pruned by score wherever they are read.
  tombstone(rk)
  return 0
end

local function used(h)
  local u = actual[h.c]
  if type(u) ~= 'number' or u ~= u or u < 0 or u == math.huge then return h.a end
  return u
end

for _, h in ipairs(cjson.decode(record[3])) do
  if h.t == 'rate' then
    local delta
    if releasing then
      if h.k == 1 then delta = 0 else delta = -h.a end
    else
      delta = used(h) - h.a
    end
    if delta ~= 0 then adjust_rate(h.c, h.l, delta) end
  elseif h.t == 'count' then
    redis.call('ZREM', count_key(h.c), id)
  else
    local k = spend_key(h.c)
    if redis.call('ZREM', lease_key(h.c), id) == 1 then
      local amount = tonumber(redis.call('HGET', k, 'r:' .. id) or '0')
      redis.call('HDEL', k, 'r:' .. id)
      redis.call('HINCRBY', k, 'reserved', int(-amount))
      if not releasing then redis.call('HINCRBY', k, 'settled', int(math.floor(used(h) + 0.5))) end
      touch_spend(h.c, h.x)
    end
  end
end
tombstone(rk)
return 1
`;
