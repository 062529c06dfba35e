/**
 * The `obfuscation` field OpenAI puts on streamed delta events (unless the client sends
 * `stream_options.include_obfuscation: false`): random characters that pad each delta event so
 * that the size of an encrypted frame no longer tells an observer of the connection how long the
 * token in it is (a side channel that can reveal the text of a streamed answer). Padding brings
 * the delta plus padding to the next multiple of 16 characters, never less than one character of
 * padding. The characters themselves carry nothing and need no escaping in JSON; they come from the
 * pool of random bytes in `core/random-pool.ts`, so a delta costs no call into the CSPRNG.
 */
import { drawRandomBytes } from '../../core/random-pool.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const BUCKET = 16;
/** Padding for a delta of `deltaLength` characters (1 to 16 characters). */
export function obfuscationPadding(deltaLength: number): string {
  const length = BUCKET - (deltaLength % BUCKET);
  const bytes = drawRandomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i] & 63];
  return out;
}
