/**
 * What the gateway itself needs from a chat request it forwards untranslated (pass-through):
 * the model to route, whether it streams, and the size of each inline document so document
 * limits still apply. The surfaces' light readers produce it without the full canonical parse,
 * so native features the canonical form lacks reach a same-dialect upstream.
 */
import { GatewayError } from './errors.js';

/** Longest model id accepted, in characters. */
const MAX_MODEL_ID_LENGTH = 256;

export interface PeekedDocument {
  /** Where the document's data is, as the client wrote it (`messages[0].content[1].source.data`). */
  param: string;
  /** Its decoded size in bytes. */
  bytes: number;
}

export interface PeekedChatRequest {
  model: string;
  stream: boolean;
  /** OpenAI: the client asked for the usage chunk (`stream_options.include_usage`) on a stream. */
  includeUsage?: boolean;
  documents: PeekedDocument[];
}

/** A model id: a non-empty string of bounded length; `invalid_request` naming `param` otherwise. */
export function peekModel(value: unknown, param: string): string {
  if (typeof value !== 'string') {
    throw new GatewayError('invalid_request', `${param}: ${value === undefined ? 'is required' : 'expected a string'}`, { param });
  }
  if (value.length === 0) throw new GatewayError('invalid_request', `${param}: must not be empty`, { param });
  if (value.length > MAX_MODEL_ID_LENGTH) {
    throw new GatewayError('invalid_request', `${param}: must be at most ${MAX_MODEL_ID_LENGTH} characters`, { param });
  }
  return value;
}

/** `stream` when present: a boolean; `invalid_request` otherwise. */
export function peekStream(value: unknown, param = 'stream'): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new GatewayError('invalid_request', `${param}: expected a boolean`, { param });
  return value;
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
