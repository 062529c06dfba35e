/**
 * The bounds of one `POST /v1/responses` request, checked before any item is parsed, so that
 * an oversized input costs a length check, not a translation:
 *
 * - at most MAX_INPUT_ITEMS items in `input` (an agent's turn adds a handful; a whole pasted
 *   transcript a few hundred);
 * - at most MAX_TEXT_CHARS characters in any one text — a string `input`, `instructions`, a
 *   message's text or content parts, a tool call's arguments or output, a reasoning item's
 *   summary or sealed content (about half a million tokens, past most models' context; long
 *   documents go as `input_file`, whose data only the body and document limits bound);
 * - at most MAX_INPUT_PARTS content, output and summary parts over the whole input;
 * - at most MAX_HISTORY_ITEMS items in the conversation `previous_response_id` continues.
 *
 * Every later loop over the input is bounded by these.
 */
import { invalidRequest } from '../../core/errors.js';
import { isJsonObject } from '../../core/peeked-chat-request.js';

export const MAX_INPUT_ITEMS = 2_000;
export const MAX_TEXT_CHARS = 2 * 1024 * 1024;
export const MAX_INPUT_PARTS = 10_000;
export const MAX_HISTORY_ITEMS = 8_000;

/** Item members that hold text, or lists of parts that do. */
const TEXT_MEMBERS = ['content', 'output', 'arguments', 'summary', 'encrypted_content'] as const;
/** Part members that hold text (media members — `image_url`, `file_data` — are not texts). */
const PART_TEXT_MEMBERS = ['text', 'refusal'] as const;

function checkText(value: string, param: string): void {
  if (value.length > MAX_TEXT_CHARS) {
    throw invalidRequest(
      `${param}: ${value.length} characters is more than the ${MAX_TEXT_CHARS} a single text may hold; send long documents as an input_file`,
      param,
    );
  }
}

/** `input` and `instructions` of a request body within the bounds above; `invalid_request` naming the first excess. */
export function checkResponsesInputBounds(body: Record<string, unknown>): void {
  if (typeof body.instructions === 'string') checkText(body.instructions, 'instructions');
  const input = body.input;
  if (typeof input === 'string') {
    checkText(input, 'input');
    return;
  }
  if (!Array.isArray(input)) return;
  if (input.length > MAX_INPUT_ITEMS) {
    throw invalidRequest(`input: ${input.length} items is more than the ${MAX_INPUT_ITEMS} one request may hold`, 'input');
  }
  let parts = 0;
  for (let i = 0; i < input.length; i++) {
    const item = input[i];
    if (!isJsonObject(item)) continue;
    for (const member of TEXT_MEMBERS) {
      const value = item[member];
      const param = `input[${i}].${member}`;
      if (typeof value === 'string') checkText(value, param);
      else if (Array.isArray(value)) {
        parts += value.length;
        if (parts > MAX_INPUT_PARTS) {
          throw invalidRequest(`${param}: the input holds more than the ${MAX_INPUT_PARTS} content parts one request may hold`, param);
        }
        checkPartTexts(value, param);
      }
    }
  }
}

function checkPartTexts(parts: unknown[], param: string): void {
  for (let j = 0; j < parts.length; j++) {
    const part = parts[j];
    if (!isJsonObject(part)) continue;
    for (const member of PART_TEXT_MEMBERS) {
      const text = part[member];
      if (typeof text === 'string') checkText(text, `${param}[${j}].${member}`);
    }
  }
}

/** The conversation a request continues, within MAX_HISTORY_ITEMS. */
export function checkHistoryBounds(history: readonly unknown[]): void {
  if (history.length > MAX_HISTORY_ITEMS) {
    throw invalidRequest(
      `previous_response_id: the conversation holds ${history.length} items, more than the ${MAX_HISTORY_ITEMS} gengate continues; start a new one`,
      'previous_response_id',
    );
  }
}
