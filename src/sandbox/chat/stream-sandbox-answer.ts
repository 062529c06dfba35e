import { performance } from 'node:perf_hooks';
import type { ChatEvent } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { abortedError, sleep } from '../shared/sleep.js';
import { tokenPieces } from '../shared/tokenizer.js';
import type { SandboxAnswer } from './build-sandbox-answer.js';

interface StreamPacing {
  /** 0 streams as fast as the consumer reads. */
  tokensPerSecond: number;
  firstTokenDelayMs: number;
  /** End with an `error` event about halfway through the output. */
  failMidStream: boolean;
  signal: AbortSignal;
}

/** How many pieces a tool call's arguments are streamed in, at most. */
const ARGUMENT_PIECES = 4;
/** Waits shorter than this are not worth a timer; the schedule catches up on the next token. */
const MIN_WAIT_MS = 1;

function midStreamFailure(): GatewayError {
  return new GatewayError('overloaded', 'sandbox: injected mid-stream failure (failMidStream)', {
    upstreamStatus: 503,
    code: 'sandbox_injected_failure',
  });
}

function splitArguments(args: string): string[] {
  const size = Math.max(1, Math.ceil(args.length / ARGUMENT_PIECES));
  const pieces: string[] = [];
  for (let at = 0; at < args.length; at += size) pieces.push(args.slice(at, at + size));
  return pieces;
}

/**
 * Streams an answer as canonical events: `start`, then the text token by token (or each
 * tool call as a start and a few argument pieces), then `finish` with usage. Token i is due
 * `firstTokenDelayMs + i / tokensPerSecond` after the start; the schedule is absolute so
 * timer lateness does not add up. Aborting the signal ends the stream with a thrown GatewayError.
 */
export async function* streamSandboxAnswer(answer: SandboxAnswer, model: string, created: number, pacing: StreamPacing): AsyncGenerator<ChatEvent> {
  const { signal } = pacing;
  const interval = pacing.tokensPerSecond > 0 && Number.isFinite(pacing.tokensPerSecond) ? 1000 / pacing.tokensPerSecond : 0;
  yield { type: 'start', id: answer.id, model, created, usage: { inputTokens: answer.usage.inputTokens } };
  await sleep(pacing.firstTokenDelayMs, signal);
  const firstTokenAt = performance.now();
  let emitted = 0;
  const pace = async (tokens: number): Promise<void> => {
    if (signal.aborted) throw abortedError(signal);
    if (interval > 0) {
      const wait = firstTokenAt + emitted * interval - performance.now();
      if (wait >= MIN_WAIT_MS) await sleep(wait, signal);
    }
    emitted += tokens;
  };

  const total = answer.usage.outputTokens;
  const failAfter = pacing.failMidStream ? Math.max(1, Math.floor(total / 2)) : Infinity;
  // The text first (with tool calls: the note that they are simulated), then the calls.
  for (const text of tokenPieces(answer.textTokens)) {
    await pace(1);
    yield { type: 'text_delta', text };
    if (emitted >= failAfter) {
      yield { type: 'error', error: midStreamFailure() };
      return;
    }
  }
  if (answer.toolCalls.length > 0) {
    const argumentTokens = total - answer.textTokens.length;
    const tokensPerPiece = Math.max(1, Math.round(argumentTokens / Math.max(1, answer.toolCalls.length * ARGUMENT_PIECES)));
    for (let index = 0; index < answer.toolCalls.length; index++) {
      const call = answer.toolCalls[index];
      await pace(1);
      yield { type: 'tool_call_start', index, id: call.id, name: call.name };
      for (const argumentsDelta of splitArguments(call.arguments)) {
        await pace(tokensPerPiece);
        yield { type: 'tool_call_delta', index, argumentsDelta };
        if (emitted >= failAfter) {
          yield { type: 'error', error: midStreamFailure() };
          return;
        }
      }
    }
  }
  if (pacing.failMidStream) {
    // Output too short to fail halfway: fail before finishing instead.
    yield { type: 'error', error: midStreamFailure() };
    return;
  }
  yield { type: 'finish', finishReason: answer.finishReason, stopSequence: answer.stopSequence, usage: { ...answer.usage } };
}
