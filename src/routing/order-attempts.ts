/**
 * Decides which channels one request tries, in order. Pure: no I/O, the randomness and the
 * circuit state are passed in, so every rule is tested exhaustively.
 *
 * Rules: disabled channels never; higher priority tiers first; within a tier a weighted random
 * order without repeats (a retry never hits the same channel twice); channels whose circuit is
 * open only after every healthy one, as a last resort; at most `maxAttempts` in all.
 */
export interface Selectable {
  name: string;
  priority: number;
  weight: number;
  enabled: boolean;
}

export function orderAttempts<T extends Selectable>(
  candidates: readonly T[],
  maxAttempts: number,
  isOpen: (name: string) => boolean,
  random: () => number = Math.random,
): T[] {
  const healthy: T[] = [];
  const open: T[] = [];
  for (const channel of candidates) {
    if (!channel.enabled) continue;
    (isOpen(channel.name) ? open : healthy).push(channel);
  }
  const ordered = [...byTiers(healthy, random), ...byTiers(open, random)];
  return ordered.slice(0, Math.max(1, maxAttempts));
}

function byTiers<T extends Selectable>(channels: T[], random: () => number): T[] {
  const tiers = new Map<number, T[]>();
  for (const channel of channels) {
    const tier = tiers.get(channel.priority);
    if (tier) tier.push(channel);
    else tiers.set(channel.priority, [channel]);
  }
  const priorities = [...tiers.keys()].sort((a, b) => b - a);
  const out: T[] = [];
  for (const priority of priorities) out.push(...weightedShuffle(tiers.get(priority)!, random));
  return out;
}

/** Weighted random order without replacement; zero-weight channels go last, in config order. */
export function weightedShuffle<T extends Selectable>(channels: T[], random: () => number): T[] {
  const pool = channels.filter((c) => c.weight > 0);
  const zero = channels.filter((c) => c.weight <= 0);
  const out: T[] = [];
  while (pool.length > 0) {
    const total = pool.reduce((sum, c) => sum + c.weight, 0);
    let pick = random() * total;
    let index = 0;
    for (; index < pool.length - 1; index++) {
      pick -= pool[index].weight;
      if (pick < 0) break;
    }
    out.push(pool[index]);
    pool.splice(index, 1);
  }
  return [...out, ...zero];
}
