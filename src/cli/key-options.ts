/** The values of `gengate keys create`, checked: a key's name, its model patterns and its expiry. */
import { keyNameProblem, modelPatternsProblem } from '../auth/key-rules.js';
import { UsageError } from './usage.js';

export function parseKeyName(value: string | undefined): string {
  if (value === undefined) return 'unnamed';
  const name = value.trim();
  if (!name) throw new UsageError('--name is empty: give a label, or leave --name out');
  const problem = keyNameProblem(name);
  if (problem) throw new UsageError(`--name ${problem}`);
  return name;
}

/** Model patterns; `undefined` (no --models) means any model. An empty list is a mistake, never "any". */
export function parseModelPatterns(value: string | undefined): string[] | null {
  if (value === undefined) return null;
  const patterns = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (patterns.length === 0) {
    throw new UsageError('--models lists no model: give patterns such as textmodel-b-*, or leave --models out for a key that may use any model');
  }
  const problem = modelPatternsProblem(patterns);
  if (problem) throw new UsageError(`--models ${problem}`);
  return [...new Set(patterns)];
}

/** `--account`: the email of the account the key is for; `undefined` makes an operator key. */
export function parseAccountEmail(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError(`--account "${JSON.stringify(value).slice(1, -1)}" is not an email address`);
  return email;
}

const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** A date (midnight UTC) or an ISO 8601 time, later than `now`; `undefined` means never. */
export function parseExpiry(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  const match = ISO_DATE.exec(text);
  const at = match ? Date.parse(match[2] && !match[5] ? `${text}Z` : text) : Number.NaN;
  // Date.parse rolls 2027-02-30 over to March; a date that does not exist is refused instead.
  if (Number.isNaN(at) || (match && !match[5] && new Date(at).toISOString().slice(0, 10) !== match[1])) {
    throw new UsageError(`--expires "${text}" is not a date: use YYYY-MM-DD (UTC) or an ISO 8601 time such as 2027-01-01T12:00Z`);
  }
  if (at <= now) {
    throw new UsageError(`--expires ${new Date(at).toISOString()} is not in the future: a key must expire after it is created`);
  }
  return at;
}
