import type { ToolResultPart } from '../../core/chat.js';
import type { Prng } from '../shared/prng.js';
import { SANDBOX_LINKS, SANDBOX_WORDS } from '../shared/sandbox-words.js';
import { describeDocuments } from './describe-documents.js';
import type { LastTurn } from './inspect-last-turn.js';
import type { DocumentReadings } from './read-documents.js';

/** Every simulated text answer starts with this, so nobody mistakes it for a model's words. */
const SIMULATED_MARKER = '[gengate sandbox — simulated response, no model was called]';

const MIN_PROSE_WORDS = 20;
const MAX_PROSE_WORDS = 80;

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function attachmentsSentence(turn: LastTurn, readings: DocumentReadings): string | undefined {
  const parts: string[] = [];
  if (turn.images > 0) parts.push(plural(turn.images, 'image'));
  parts.push(...describeDocuments(turn.documents, readings));
  return parts.length === 0 ? undefined : `It received ${parts.join(' and ')}.`;
}

function toolResultsSentence(results: readonly ToolResultPart[]): string {
  const names = [...new Set(results.map((r) => r.name ?? r.toolCallId))].join(', ');
  return `Received ${plural(results.length, 'tool result')} (${names}); a real model would now answer from ${results.length === 1 ? 'it' : 'them'}.`;
}

function prose(rng: Prng, words: number): string {
  const sentences: string[] = [];
  let left = words;
  while (left > 0) {
    const length = Math.min(left, rng.int(5, 12));
    const sentence: string[] = [];
    let linked = false;
    for (let i = 0; i < length; i++) {
      // Mostly content words, with single joiners in between so it reads like (meaningless) prose.
      linked = !linked && i > 0 && i < length - 1 && rng.chance(0.3);
      const word = linked ? rng.pick(SANDBOX_LINKS) : rng.pick(SANDBOX_WORDS);
      sentence.push(i === 0 ? word[0].toUpperCase() + word.slice(1) : word);
    }
    sentences.push(`${sentence.join(' ')}.`);
    left -= length;
  }
  return sentences.join(' ');
}

/**
 * The simulated answer text: the marker, `notes` (what the sandbox chose not to simulate),
 * what it received (model id, attachments — with what it read of documents — or tool
 * results), then 20–80 words of deterministic filler prose.
 */
export function composeAnswerText(model: string, turn: LastTurn, rng: Prng, readings: DocumentReadings = new Map(), notes: readonly string[] = []): string {
  const lines = [SIMULATED_MARKER, ...notes];
  if (turn.toolResults.length > 0) lines.push(toolResultsSentence(turn.toolResults));
  else lines.push(`Simulated answer for model ${model}.`);
  const attachments = attachmentsSentence(turn, readings);
  if (attachments && turn.toolResults.length === 0) lines.push(attachments);
  lines.push(prose(rng, rng.int(MIN_PROSE_WORDS, MAX_PROSE_WORDS)));
  return lines.join(' ');
}
