import type { Prng } from '../shared/prng.js';
import { SANDBOX_WORDS } from '../shared/sandbox-words.js';

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function date(rng: Prng): string {
  return `${rng.int(2020, 2029)}-${two(rng.int(1, 12))}-${two(rng.int(1, 28))}`;
}

function time(rng: Prng): string {
  return `${two(rng.int(0, 23))}:${two(rng.int(0, 59))}:${two(rng.int(0, 59))}Z`;
}

const EMOJI = ['🙂', '🚀', '🌱', '📦', '✨', '🎉', '🔧', '📚'];

function base64(rng: Prng, url: boolean): string {
  return Buffer.from(`${rng.pick(SANDBOX_WORDS)} ${rng.pick(SANDBOX_WORDS)}`).toString(url ? 'base64url' : 'base64');
}

/** An unsigned token of the JWT shape: header.payload.signature, each base64url. */
function jwt(rng: Prng): string {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: rng.pick(SANDBOX_WORDS), iat: rng.int(1_700_000_000, 1_800_000_000) })}.${rng.hex(43)}`;
}

function uuid(rng: Prng): string {
  const hex = rng.hex(32);
  const variant = '89ab'[rng.int(0, 3)];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A plausible value for a JSON Schema string `format`; undefined for formats it does not know. */
export function generateStringFormat(format: string, rng: Prng): string | undefined {
  switch (format) {
    case 'date':
      return date(rng);
    case 'date-time':
      return `${date(rng)}T${time(rng)}`;
    case 'time':
      return time(rng);
    case 'email':
    case 'idn-email':
      return `${rng.pick(SANDBOX_WORDS)}.${rng.pick(SANDBOX_WORDS)}@example.com`;
    case 'uri':
    case 'url':
    case 'iri':
      return `https://example.com/${rng.pick(SANDBOX_WORDS)}/${rng.pick(SANDBOX_WORDS)}`;
    case 'uri-reference':
    case 'iri-reference':
      return `/${rng.pick(SANDBOX_WORDS)}/${rng.pick(SANDBOX_WORDS)}`;
    case 'hostname':
    case 'idn-hostname':
      return `${rng.pick(SANDBOX_WORDS)}.example.com`;
    case 'ipv4':
      return `192.0.2.${rng.int(1, 254)}`;
    case 'ipv6':
      return `2001:db8::${rng.int(1, 0xfffe).toString(16)}`;
    case 'uuid':
      return uuid(rng);
    case 'duration':
      return `PT${rng.int(1, 59)}M`;
    case 'iso-date-time':
      return `${date(rng)}T${time(rng)}`;
    case 'iso-time':
      return time(rng);
    case 'byte':
    case 'base64':
      return base64(rng, false);
    case 'base64url':
      return base64(rng, true);
    case 'jwt':
      return jwt(rng);
    case 'emoji':
      return rng.pick(EMOJI);
    case 'regex':
      return `^${rng.pick(SANDBOX_WORDS)}-[0-9]+$`;
    case 'json-pointer':
      return `/${rng.pick(SANDBOX_WORDS)}/${rng.int(0, 9)}`;
    case 'relative-json-pointer':
      return `${rng.int(0, 3)}/${rng.pick(SANDBOX_WORDS)}`;
    case 'uri-template':
      return `https://example.com/${rng.pick(SANDBOX_WORDS)}/{id}`;
    default:
      return undefined;
  }
}
