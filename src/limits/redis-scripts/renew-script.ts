/**
 * Extends the leases of live reservations (a heartbeat of the replica running them): the record,
 * and every count and spend entry it holds. ARGV: prefix, now, leaseMs, then reservation ids.
 */
import { PRELUDE } from './prelude.js';

export const RENEW_SCRIPT = `${PRELUDE}
local lease = tonumber(ARGV[3])
local lease_expiry = now + lease
local renewed = 0
for i = 4, #ARGV do
  local id = ARGV[i]
  local rk = res_key(id)
  local record = redis.call('HMGET', rk, 'state', 'lease', 'holds')
  if record[1] == 'live' and tonumber(record[2]) > now then
    redis.call('HSET', rk, 'lease', f17(lease_expiry))
    redis.call('PEXPIRE', rk, math.ceil(lease) + RECORD_MARGIN)
    for _, h in ipairs(cjson.decode(record[3])) do
      if h.t == 'count' then
        redis.call('ZADD', count_key(h.c), 'XX', f17(lease_expiry), id)
        touch_zset(count_key(h.c))
      elseif h.t == 'spend' then
        redis.call('ZADD', lease_key(h.c), 'XX', f17(lease_expiry), id)
        touch_spend(h.c, h.x)
      end
    end
    renewed = renewed + 1
  end
end
return renewed
`;
