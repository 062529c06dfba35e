/** nUSD as USD for people to read (a budget's cap, a spend): every significant decimal, at least two. */
import { formatNusd } from '../ledger/money.js';

/** `25_000_000_000` → `"25.00"`, `1_500` → `"0.0000015"`. */
export function displayUsd(nusd: number): string {
  const [whole, fraction] = formatNusd(nusd).split('.');
  return `${whole}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
}
