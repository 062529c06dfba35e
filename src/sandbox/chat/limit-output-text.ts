import type { FinishReason } from '../../core/chat.js';
import { encodeText, tokenPieces } from '../shared/tokenizer.js';

interface LimitedText {
  text: string;
  /** The tokens of `text`; their count is the output usage. */
  tokens: number[];
  finishReason: Extract<FinishReason, 'stop' | 'length' | 'stop_sequence'>;
  stopSequence: string | null;
}

function earliestStop(text: string, stop: readonly string[] | undefined): { at: number; sequence: string } | undefined {
  let found: { at: number; sequence: string } | undefined;
  if (!stop) return found;
  for (const sequence of stop) {
    if (sequence.length === 0) continue;
    const at = text.indexOf(sequence);
    if (at >= 0 && (found === undefined || at < found.at)) found = { at, sequence };
  }
  return found;
}

/**
 * Ends the produced text the way a model would: at the first stop sequence (excluded,
 * `stop_sequence`), or after `maxTokens` tokens (`length`), whichever comes first.
 */
export function limitOutputText(full: string, maxTokens: number | undefined, stop: readonly string[] | undefined): LimitedText {
  const hit = earliestStop(full, stop);
  const text = hit ? full.slice(0, hit.at) : full;
  const tokens = encodeText(text);
  if (maxTokens !== undefined && tokens.length > maxTokens) {
    const kept = tokens.slice(0, Math.max(0, maxTokens));
    return { text: decodeTokens(kept), tokens: kept, finishReason: 'length', stopSequence: null };
  }
  if (hit) return { text, tokens, finishReason: 'stop_sequence', stopSequence: hit.sequence };
  return { text, tokens, finishReason: 'stop', stopSequence: null };
}

function decodeTokens(tokens: readonly number[]): string {
  let text = '';
  for (const piece of tokenPieces(tokens)) text += piece;
  return text;
}
