/**
 * Sets a spend counter's settled part from the ledger, keeping its reservations in flight.
 * 'seed' does it only when the counter was never seeded (an admit or settle alone does not count
 * as seeded), 'reset' always. ARGV: prefix, now, counter, spent nUSD, expiresAt or -1, mode.
 * Replies 1 when it set the counter.
 */
import { PRELUDE } from './prelude.js';

export const SET_SPEND_SCRIPT = `${PRELUDE}
local c = ARGV[3]
local exp = tonumber(ARGV[5])
local k = spend_key(c)
if ARGV[6] == 'seed' and redis.call('HGET', k, 'seeded') == '1' then return 0 end
local exp_field = ''
if exp >= 0 then exp_field = int(exp) end
redis.call('HSET', k, 'settled', ARGV[4], 'seeded', '1', 'exp', exp_field)
touch_spend(c, exp)
return 1
`;
