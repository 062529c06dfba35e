/**
 * Reads an upstream answer bounded to a byte cap (a hostile upstream can be endless), and parses
 * a JSON one. `who` names the upstream in messages (`Luma`, `the MJ proxy`), never its host.
 */
import { GatewayError } from '../../core/errors.js';
import type { UpstreamResponse } from './upstream-http.js';

export async function readBoundedText(body: UpstreamResponse['body'], maxBytes: number, who: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > maxBytes) {
      body.on('error', () => undefined);
      body.destroy();
      throw new GatewayError('upstream', `${who}'s answer is larger than ${maxBytes} bytes`, { retryable: true });
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parsed JSON; `undefined` for an empty body; a malformed one is the upstream's fault. */
export function parseJsonAnswer(text: string, who: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new GatewayError('upstream', `${who} answered with invalid JSON`, { retryable: true });
  }
}
