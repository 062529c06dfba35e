import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';

/** The text of a relayed body: bytes sent in one write, or a stream read to its end. */
export function bodyText(body: Readable | Buffer): Promise<string> {
  return Buffer.isBuffer(body) ? Promise.resolve(body.toString('utf8')) : text(body);
}
