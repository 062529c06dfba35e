/**
 * Canonical ChatResponse → a Responses API response object (`POST /v1/responses` without
 * `stream`). Canonical parts become output items in order: each thinking block a `reasoning`
 * item, each run of text a `message` item, each tool call a `function_call` item. A `length` or
 * `content_filter` finish makes the response `incomplete` (its last message or call item too); a
 * `refusal` finish gives the messages a `refusal` part instead of `output_text` (an empty one when
 * the model said nothing). Further choices (`n`) have no place in a response and are not shown.
 */
import type { ChatResponse } from '../../core/chat.js';
import type { ResponseItem } from '../../core/responses.js';
import { newResponseItemId } from './response-item-ids.js';
import {
  finalArguments,
  functionCallItem,
  messageItem,
  outputTextPart,
  reasoningItem,
  refusalPart,
  sealThinking,
  wantsReasoningSummary,
} from './render-output-items.js';
import { outcomeOf, responseObject } from './render-response-object.js';
import type { RenderResponse } from './seams.js';

export const renderResponse: RenderResponse = (response, context) => {
  const { status, incompleteReason } = outcomeOf(response.finishReason);
  const output = outputItems(response, wantsReasoningSummary(context.echo), (thinking) => sealThinking(context, thinking));
  if (status === 'incomplete') markLastCut(output);
  return { object: responseObject(context, { status, output, usage: response.usage, incompleteReason }), outputItems: output };
};

function outputItems(
  response: ChatResponse,
  withSummary: boolean,
  seal: (thinking: { text: string; signature?: string; redacted?: string }) => string | undefined,
): ResponseItem[] {
  const refused = response.finishReason === 'refusal';
  const output: ResponseItem[] = [];
  let text: string | undefined;
  const endText = (): void => {
    if (text !== undefined && text.length > 0)
      output.push(messageItem(newResponseItemId('msg'), 'completed', [refused ? refusalPart(text) : outputTextPart(text)]));
    text = undefined;
  };
  for (const part of response.content) {
    if (part.type === 'text') {
      text = (text ?? '') + part.text;
      continue;
    }
    endText();
    if (part.type === 'tool_call') {
      output.push(functionCallItem(newResponseItemId('fc'), 'completed', part.id, part.name, finalArguments(part.arguments)));
      continue;
    }
    const sealed = seal(part);
    if (part.text.length === 0 && sealed === undefined) continue;
    output.push(reasoningItem(newResponseItemId('rs'), withSummary ? part.text : undefined, sealed));
  }
  endText();
  if (refused && !output.some((item) => item.type === 'message')) output.push(messageItem(newResponseItemId('msg'), 'completed', [refusalPart('')]));
  return output;
}

/** The item a cut answer stopped in: the last message or function call. */
function markLastCut(output: ResponseItem[]): void {
  const last = output[output.length - 1];
  if (last && (last.type === 'message' || last.type === 'function_call')) last.status = 'incomplete';
}
