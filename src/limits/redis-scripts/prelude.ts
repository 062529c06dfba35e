/**
 * The Lua every counter script starts with: key names under the prefix, the caller's clock, and
 * the GCRA, count and spend arithmetic of `gcra.ts` and `counter-rules.ts` repeated step for step
 * (same doubles, same order of operations), so a Redis counter and a memory counter agree.
 * Numbers leave Lua through `int`/`f17`: Redis would otherwise format them with 14 digits.
 *
 * Keys (all under ARGV[1], the prefix): `rate:<counter>` the GCRA tat; `count:<counter>` a sorted
 * set of reservation ids scored by lease expiry; `spend:<counter>` a hash (settled, seeded, exp,
 * reserved, and `r:<id>` per reservation) with `lease:<counter>`, its reservations' lease expiries;
 * `res:<id>` a reservation record (state, lease, holds) or, once ended, its tombstone.
 */
import { GCRA_EPSILON_MS, RATE_WINDOW_MS } from '../gcra.js';
import { ENDED_MEMORY_MS, RATE_KEEP_MS, RECORD_MARGIN_MS, SOON_RETRY_MS } from '../counter-rules.js';

export const PRELUDE = `
local P = ARGV[1]
local now = tonumber(ARGV[2])
local WINDOW = ${RATE_WINDOW_MS}
local EPS = ${GCRA_EPSILON_MS}
local RATE_KEEP = ${RATE_KEEP_MS}
local RECORD_MARGIN = ${RECORD_MARGIN_MS}
local ENDED_MEMORY = ${ENDED_MEMORY_MS}
local SOON = ${SOON_RETRY_MS}

local function f17(x) return string.format('%.17g', x) end
local function int(x) return string.format('%.0f', x) end

local function rate_key(c) return P .. 'rate:' .. c end
local function count_key(c) return P .. 'count:' .. c end
local function spend_key(c) return P .. 'spend:' .. c end
local function lease_key(c) return P .. 'lease:' .. c end
local function res_key(id) return P .. 'res:' .. id end

local function read_tat(c)
  local v = redis.call('GET', rate_key(c))
  if v then return tonumber(v) end
  return nil
end

local function write_tat(c, tat)
  if tat <= now then
    redis.call('DEL', rate_key(c))
  else
    redis.call('SET', rate_key(c), f17(tat), 'PX', math.ceil(tat - now) + RATE_KEEP)
  end
end

local function standing(tat, limit)
  local interval = WINDOW / limit
  local base = math.max(tat or now, now)
  local left = math.floor((WINDOW - (base - now) + EPS) / interval)
  if left > limit then left = limit end
  if left < 0 then left = 0 end
  return left, math.ceil(base)
end

local function adjust_rate(c, limit, delta)
  local tat = read_tat(c) or now
  write_tat(c, math.max(now, tat + delta * (WINDOW / limit)))
end

local function touch_zset(k)
  local top = redis.call('ZRANGE', k, -1, -1, 'WITHSCORES')
  if top[2] then
    redis.call('PEXPIRE', k, math.max(1, math.ceil(tonumber(top[2]) - now)) + RECORD_MARGIN)
  end
end

local function live_count(c)
  local k = count_key(c)
  redis.call('ZREMRANGEBYSCORE', k, '-inf', now)
  return redis.call('ZCARD', k)
end

-- A period's counter lives until its exp (measured on the caller's clock, like everything here);
-- a lifetime counter (exp < 0) has no end, its leases do.
local function touch_spend(c, exp)
  if exp >= 0 then
    if exp <= now then
      redis.call('DEL', spend_key(c), lease_key(c))
    else
      redis.call('PEXPIRE', spend_key(c), math.ceil(exp - now))
      redis.call('PEXPIRE', lease_key(c), math.ceil(exp - now))
    end
  else
    touch_zset(lease_key(c))
  end
end

-- Settled and reserved nUSD of a spend counter, after dropping an ended period and expired leases.
local function live_spend(c)
  local k = spend_key(c)
  local lk = lease_key(c)
  local exp = redis.call('HGET', k, 'exp')
  if exp and exp ~= '' and tonumber(exp) <= now then
    redis.call('DEL', k, lk)
    return 0, 0
  end
  local expired = redis.call('ZRANGEBYSCORE', lk, '-inf', now)
  for _, id in ipairs(expired) do
    local amount = redis.call('HGET', k, 'r:' .. id)
    if amount then
      redis.call('HINCRBY', k, 'reserved', int(-tonumber(amount)))
      redis.call('HDEL', k, 'r:' .. id)
    end
    redis.call('ZREM', lk, id)
  end
  local values = redis.call('HMGET', k, 'settled', 'reserved')
  return tonumber(values[1]) or 0, tonumber(values[2]) or 0
end

local function tombstone(rk)
  redis.call('DEL', rk)
  redis.call('HSET', rk, 'state', 'ended')
  redis.call('PEXPIRE', rk, ENDED_MEMORY)
end
`;
