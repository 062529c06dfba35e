/**
 * The standing of counters, taking nothing (expired leases and ended periods are pruned on the
 * way). ARGV: prefix, now, holds as JSON like the admit's. Replies remaining₁, resetAt₁, ….
 */
import { PRELUDE } from './prelude.js';

export const PEEK_SCRIPT = `${PRELUDE}
local out = {}
for _, h in ipairs(cjson.decode(ARGV[3])) do
  local remaining, reset
  if h.t == 'rate' then
    remaining, reset = standing(read_tat(h.c), h.l)
  elseif h.t == 'count' then
    remaining, reset = h.l - live_count(h.c), 0
  else
    local settled, reserved = live_spend(h.c)
    remaining, reset = h.l - settled - reserved, 0
    if h.x >= 0 then reset = h.x end
  end
  out[#out + 1] = int(math.max(0, remaining))
  out[#out + 1] = int(reset)
end
return out
`;
