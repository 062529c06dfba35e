/**
 * Settle or release a reservation, atomically and idempotently: a live record is ended, and it
 * leaves a tombstone so a late duplicate is a no-op. A record whose lease ran out (its holder was
 * slow, not dead: the record outlives the lease by RECORD_MARGIN) gave its count and reservation
 * back when the lease was pruned; a settle of it still adds what was spent, since the call's usage
 * is real. ARGV:
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
local lapsed = tonumber(record[2]) <= now
-- Past the margin the holder is taken for dead, whatever its late word says.
if tonumber(record[2]) + RECORD_MARGIN <= now then
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
    if delta ~= 0 and not lapsed then adjust_rate(h.c, h.l, delta) end
  elseif h.t == 'count' then
    redis.call('ZREM', count_key(h.c), id)
  else
    local k = spend_key(h.c)
    local held = redis.call('ZREM', lease_key(h.c), id) == 1
    if held then
      local amount = tonumber(redis.call('HGET', k, 'r:' .. id) or '0')
      redis.call('HDEL', k, 'r:' .. id)
      redis.call('HINCRBY', k, 'reserved', int(-amount))
    end
    -- A lapsed reservation was pruned (or is now): what it spent still counts, in its period only.
    if not releasing and (held or h.x < 0 or h.x > now) then
      redis.call('HINCRBY', k, 'settled', int(math.floor(used(h) + 0.5)))
      if not held and h.x >= 0 then redis.call('HSET', k, 'exp', int(h.x)) end
    end
    touch_spend(h.c, h.x)
  end
end
tombstone(rk)
return 1
`;
