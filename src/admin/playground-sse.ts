/**
 * The playground's stream, one `data: <json>` line per event: `text` deltas, then `done` with
 * the usage and the route, or `error`. Ends early when the client went away.
 */
import type { ChatEvent } from '../core/chat.js';
import { toGatewayError } from '../core/errors.js';
import type { RouteInfo } from '../core/route.js';

type PlaygroundEvent =
  | { type: 'text'; text: string }
  | { type: 'done'; usage: { inputTokens: number; outputTokens: number }; route: { channel: string; provider: string; simulated: boolean } }
  | { type: 'error'; message: string };

export function frame(event: PlaygroundEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}

export async function* playgroundFrames(events: AsyncIterable<ChatEvent>, route: RouteInfo, signal: AbortSignal): AsyncGenerator<string> {
  const where = { channel: route.channel, provider: route.provider, simulated: route.simulated };
  try {
    for await (const event of events) {
      if (signal.aborted) return;
      switch (event.type) {
        case 'text_delta':
          if (event.text) yield frame({ type: 'text', text: event.text });
          break;
        case 'finish':
          yield frame({ type: 'done', usage: { inputTokens: event.usage.inputTokens, outputTokens: event.usage.outputTokens }, route: where });
          return;
        case 'error':
          yield frame({ type: 'error', message: event.error.message });
          return;
        default:
          break;
      }
    }
    yield frame({ type: 'error', message: 'The stream ended before the model finished.' });
  } catch (error) {
    if (!signal.aborted) yield frame({ type: 'error', message: toGatewayError(error).message });
  }
}
