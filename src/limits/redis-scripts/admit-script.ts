/**
 * Admit, atomically: checks every hold, then takes all of them or none. ARGV: prefix, now,
 * leaseMs, reservation id, the holds as JSON (`{t, c, l, a, x, k}`: type, counter, limit,
 * amount, expiresAt or -1, kept on release). Replies `{'duplicate'}`, or
 * `{'ok' | 'refused', refused index, retryAt or '', remaining₁, resetAt₁, …}` as strings.
 */
import { PRELUDE } from './prelude.js';

export const ADMIT_SCRIPT = `${PRELUDE}
local lease = tonumber(ARGV[3])
local id = ARGV[4]
local holds = cjson.decode(ARGV[5])
local rk = res_key(id)
if redis.call('EXISTS', rk) == 1 then return {'duplicate'} end
local lease_expiry = now + lease

local out = {}
local tats = {}
local refused, refused_retry, refused_never = nil, nil, false
local function refuse(i, retry)
  if refused == nil then
    refused, refused_retry, refused_never = i, retry, retry == nil
  elseif not refused_never and (retry == nil or retry > refused_retry) then
    refused, refused_retry, refused_never = i, retry, retry == nil
  end
end
local function push(remaining, reset)
  out[#out + 1] = int(math.max(0, remaining))
  out[#out + 1] = int(reset)
end

for i, h in ipairs(holds) do
  if h.t == 'rate' then
    local base = math.max(read_tat(h.c) or now, now)
    local nxt = base + h.a * (WINDOW / h.l)
    if nxt - now <= WINDOW + EPS then
      tats[i] = nxt
      push(standing(nxt, h.l))
    else
      push(standing(base, h.l))
      if h.a > h.l then refuse(i, nil) else refuse(i, math.ceil(nxt - WINDOW - EPS)) end
    end
  elseif h.t == 'count' then
    local used = live_count(h.c)
    if used < h.l then push(h.l - used - 1, 0) else
      push(0, 0)
      refuse(i, now + SOON)
    end
  else
    local settled, reserved = live_spend(h.c)
    local used = settled + reserved
    local reset = 0
    if h.x >= 0 then reset = h.x end
    if used + h.a <= h.l then push(h.l - used - h.a, reset) else
      push(h.l - used, reset)
      if h.a > h.l then
        refuse(i, nil)
      elseif settled + h.a > h.l then
        if h.x >= 0 then refuse(i, h.x) else refuse(i, nil) end
      else
        refuse(i, now + SOON)
      end
    end
  end
end

if refused ~= nil then
  local retry = ''
  if refused_retry ~= nil then retry = int(refused_retry) end
  local reply = {'refused', int(refused - 1), retry}
  for _, v in ipairs(out) do reply[#reply + 1] = v end
  return reply
end

for i, h in ipairs(holds) do
  if h.t == 'rate' then
    write_tat(h.c, tats[i])
  elseif h.t == 'count' then
    redis.call('ZADD', count_key(h.c), f17(lease_expiry), id)
    touch_zset(count_key(h.c))
  else
    local k = spend_key(h.c)
    local exp = ''
    if h.x >= 0 then exp = int(h.x) end
    redis.call('HSET', k, 'r:' .. id, int(h.a), 'exp', exp)
    redis.call('HINCRBY', k, 'reserved', int(h.a))
    redis.call('ZADD', lease_key(h.c), f17(lease_expiry), id)
    touch_spend(h.c, h.x)
  end
end
redis.call('HSET', rk, 'state', 'live', 'lease', f17(lease_expiry), 'holds', ARGV[5])
redis.call('PEXPIRE', rk, math.ceil(lease) + RECORD_MARGIN)
local reply = {'ok', '', ''}
for _, v in ipairs(out) do reply[#reply + 1] = v end
return reply
`;
